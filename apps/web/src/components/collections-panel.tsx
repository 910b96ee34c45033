import type { ApiCollection } from '@rag/api-contract'
import { useEffect, useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { SynonymsLink } from './synonyms-link.tsx'

/**
 * The collections, with their documents, and a new one begun before its first document (admins):
 * keys, sources and synonyms can only name a collection that exists, so a typo is refused.
 */
export function CollectionsPanel({ onCreated }: { onCreated?: () => void }) {
  const { t } = useApp()
  const [collections, setCollections] = useState<ApiCollection[]>([])
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const refresh = () =>
    api
      .listCollections()
      .then(({ collections }) => setCollections(collections))
      .catch((failure) => setError(messageOf(failure)))
  useEffect(() => void refresh(), [])

  const create = async (event: Event) => {
    event.preventDefault()
    setError(null)
    try {
      await api.createCollection(name.trim())
      setName('')
      await refresh()
      onCreated?.()
    } catch (failure) {
      setError(messageOf(failure))
    }
  }

  return (
    <section class="card collections" data-testid="collections-panel">
      <h3>{t('collections.title')}</h3>
      <ul class="collection-list">
        {collections.map((collection) => (
          <li key={collection.name} data-collection={collection.name}>
            <strong>{collection.name}</strong> · {t('collections.documents', { count: collection.documents })}{' '}
            · <SynonymsLink collection={collection.name} />
          </li>
        ))}
      </ul>
      <form onSubmit={create} class="collection-form">
        <label>
          {t('collections.name')}
          <input
            name="collection-name"
            value={name}
            required
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </label>
        <button type="submit">{t('collections.create')}</button>
      </form>
      <ErrorMessage message={error} />
    </section>
  )
}

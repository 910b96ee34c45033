import { useEffect, useState } from 'preact/hooks'
import { api, type KeyRecord, type Role } from '../api.ts'
import { useApp } from '../app-context.ts'
import { CollectionsPanel } from './collections-panel.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'

const ROLE_CHOICES: Role[] = ['reader', 'editor', 'admin']

/** Admins make keys (each shown once), see who has which, and revoke them. */
export function KeysView() {
  const { t } = useApp()
  const [keys, setKeys] = useState<KeyRecord[]>([])
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('reader')
  const [collections, setCollections] = useState('')
  const [made, setMade] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const refresh = () =>
    api
      .listKeys()
      .then(({ keys }) => setKeys(keys))
      .catch((failure) => setError(messageOf(failure)))
  useEffect(() => void refresh(), [])

  const create = async (event: Event) => {
    event.preventDefault()
    setError(null)
    const listed = collections
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
    try {
      const created = await api.createKey(name, role, listed.length > 0 ? listed : null)
      setMade(created.key)
      setName('')
      await refresh()
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  const revoke = async (key: KeyRecord) => {
    if (!confirm(t('keys.confirmRevoke', { name: key.name }))) return
    await api.revokeKey(key.id).catch((failure) => setError(messageOf(failure)))
    await refresh()
  }

  return (
    <>
      <CollectionsPanel />
      <section class="card keys">
        <form onSubmit={create} class="key-form">
          <label>
            {t('keys.name')}
            <input value={name} required onInput={(event) => setName(event.currentTarget.value)} />
          </label>
          <label>
            {t('keys.role')}
            <select value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
              {ROLE_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('keys.collections')}
            <input value={collections} onInput={(event) => setCollections(event.currentTarget.value)} />
          </label>
          <button type="submit">{t('keys.create')}</button>
        </form>
        {made ? (
          <p class="new-key">
            {t('keys.shownOnce')} <code data-new-key>{made}</code>
          </p>
        ) : null}
        <ErrorMessage message={error} />
        {keys.length === 0 ? <p>{t('keys.none')}</p> : null}
        <ul class="key-list">
          {keys.map((key) => (
            <li key={key.id} data-key-id={key.id} class={key.revokedAt ? 'revoked' : ''}>
              <strong>{key.name}</strong> <code>{key.prefix}…</code> {key.role} ·{' '}
              {key.collections?.join(', ') ?? '*'}
              {key.lastUsedAt ? ` · ${t('keys.lastUsed')} ${new Date(key.lastUsedAt).toLocaleString()}` : ''}
              {key.revokedAt ? (
                ` · ${t('keys.revoked')}`
              ) : (
                <button type="button" class="link" onClick={() => revoke(key)}>
                  {t('keys.revoke')}
                </button>
              )}
            </li>
          ))}
        </ul>
      </section>
    </>
  )
}

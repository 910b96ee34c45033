import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { useCollections } from './use-collections.ts'

export type Kind = 'web' | 'webdav' | 's3' | 'git'

/** The fields each kind asks for: settings, then credentials (password inputs, never shown again). */
export const FIELDS: Record<Kind, { settings: string[]; credentials: string[] }> = {
  web: { settings: ['url', 'depth'], credentials: ['username', 'password', 'token'] },
  webdav: { settings: ['url'], credentials: ['username', 'password'] },
  s3: {
    settings: ['bucket', 'prefix', 'region', 'endpoint'],
    credentials: ['accessKeyId', 'secretAccessKey'],
  },
  git: { settings: ['url', 'ref', 'path'], credentials: ['token'] },
}
const REQUIRED = new Set(['url', 'bucket'])
export const VISIBLE_CREDENTIALS = new Set(['username', 'accessKeyId'])
const NUMBERS = new Set(['depth'])

/** Adding a source: its kind's fields, a collection, a schedule; the first sync starts at once. */
export function SourceForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const { t } = useApp()
  const [kind, setKind] = useState<Kind>('web')
  const [values, setValues] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const collections = useCollections()
  const set = (field: string) => (event: { currentTarget: HTMLInputElement }) =>
    setValues((current) => ({ ...current, [field]: event.currentTarget.value }))
  const pick = (fields: string[]) =>
    Object.fromEntries(
      fields
        .filter((field) => values[field]?.trim())
        .map((field) => [field, NUMBERS.has(field) ? Number(values[field]) : values[field]?.trim()]),
    )

  const submit = async (event: Event) => {
    event.preventDefault()
    if (busy) return
    setError(null)
    setBusy(true)
    try {
      const credentials = pick(FIELDS[kind].credentials)
      await api.addSource({
        name: values.name?.trim() ?? '',
        kind,
        collection: values.collection?.trim() || 'default',
        settings: pick(FIELDS[kind].settings),
        ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
        intervalMinutes: values.every ? Number(values.every) : null,
      })
      setValues({})
      await onAdded()
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }
  const input = (field: string, type: 'text' | 'password' | 'number' = 'text', list?: string) => (
    <label key={field}>
      {t(`sources.${field}` as MessageKey)}
      <input
        name={field}
        list={list}
        // (Preact types each input type apart; all three take the attributes used here.)
        type={type as 'text'}
        autoComplete={type === 'password' ? 'new-password' : 'off'}
        required={REQUIRED.has(field)}
        value={values[field] ?? ''}
        onInput={set(field)}
      />
    </label>
  )
  return (
    <form class="source-form" onSubmit={submit} data-testid="source-form">
      <h3>{t('sources.add')}</h3>
      <label>
        {t('sources.kind')}
        <select name="kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as Kind)}>
          <option value="web">{t('sources.kind.web')}</option>
          <option value="webdav">WebDAV</option>
          <option value="s3">S3</option>
          <option value="git">Git</option>
        </select>
      </label>
      {input('name')}
      {/* The collections that exist, offered: a source for one that does not is refused (an admin creates it first, in Keys). */}
      {input('collection', 'text', 'source-collections')}
      <datalist id="source-collections">
        {collections.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {FIELDS[kind].settings.map((field) => input(field, NUMBERS.has(field) ? 'number' : 'text'))}
      {FIELDS[kind].credentials.map((field) =>
        input(field, VISIBLE_CREDENTIALS.has(field) ? 'text' : 'password'),
      )}
      {input('every', 'number')}
      <p class="muted">{t('sources.secretNote')}</p>
      <button type="submit" disabled={busy}>
        {t('sources.add')}
      </button>
      <ErrorMessage message={error} testId="source-form-error" />
    </form>
  )
}

import { useState } from 'preact/hooks'
import { api, type Source } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { FIELDS, type Kind, VISIBLE_CREDENTIALS } from './source-form.tsx'

/**
 * Changing a source in place (editors): credentials that stopped working replaced — typed once,
 * never shown — and its schedule; the documents it brought stay. New credentials start a sync,
 * which the list then shows moving.
 */
export function SourceChangeForm({ source, onChanged }: { source: Source; onChanged: () => Promise<void> }) {
  const { t } = useApp()
  const [values, setValues] = useState<Record<string, string>>({
    every: source.intervalMinutes ? String(source.intervalMinutes) : '',
  })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const fields = FIELDS[source.kind as Kind].credentials
  const set = (field: string) => (event: { currentTarget: HTMLInputElement }) =>
    setValues((current) => ({ ...current, [field]: event.currentTarget.value }))

  const submit = async (event: Event) => {
    event.preventDefault()
    if (busy) return
    setError(null)
    setBusy(true)
    try {
      const credentials = Object.fromEntries(
        fields.filter((field) => values[field]?.trim()).map((field) => [field, values[field]?.trim()]),
      )
      await api.changeSource(source.id, {
        intervalMinutes: values.every?.trim() ? Number(values.every) : null,
        ...(Object.keys(credentials).length > 0 ? { credentials } : {}),
      })
      setValues(({ every }) => ({ every: every ?? '' }))
      await onChanged()
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <details class="source-change" data-action="change">
      <summary>{t('sources.change')}</summary>
      <form onSubmit={submit} data-testid="source-change-form">
        {fields.map((field) => (
          <label key={field}>
            {t(`sources.${field}` as MessageKey)}
            <input
              name={field}
              // (Preact types each input type apart; both take the attributes used here.)
              type={(VISIBLE_CREDENTIALS.has(field) ? 'text' : 'password') as 'text'}
              autoComplete={VISIBLE_CREDENTIALS.has(field) ? 'off' : 'new-password'}
              value={values[field] ?? ''}
              onInput={set(field)}
            />
          </label>
        ))}
        <label>
          {t('sources.every')}
          <input name="every" type="number" min={1} value={values.every ?? ''} onInput={set('every')} />
        </label>
        <p class="muted">{t('sources.changeNote')}</p>
        <button type="submit" disabled={busy}>
          {t('sources.save')}
        </button>
        <ErrorMessage message={error} testId="source-change-error" />
      </form>
    </details>
  )
}

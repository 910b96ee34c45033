import { useState } from 'preact/hooks'
import { api } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

/** Shown when the server asks for a key: the key goes to POST /session and lives in a cookie. */
export function KeyPrompt({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useApp()
  const [key, setKey] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    try {
      await api.signIn(key)
      onSignedIn()
      location.reload()
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  return (
    <form class="card key-prompt" onSubmit={submit}>
      <h2>{t('key.title')}</h2>
      <p>{t('key.explain')}</p>
      <input
        type="password"
        autocomplete="current-password"
        value={key}
        onInput={(event) => setKey(event.currentTarget.value)}
      />
      <button type="submit">{t('key.submit')}</button>
      <ErrorMessage message={error} />
    </form>
  )
}

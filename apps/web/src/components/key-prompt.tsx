import { useState } from 'preact/hooks'
import { api, forgetSignIn, type Session, type SignInProblem } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

/**
 * Shown when the server asks for a key: single sign-on first when the gateway offers it (or why
 * it cannot be used now), then the API key, which goes to POST /session and lives in a cookie.
 */
export function KeyPrompt({
  onSignedIn,
  singleSignOn,
  problem,
}: {
  onSignedIn: () => void
  singleSignOn: Session['singleSignOn']
  problem: SignInProblem | null
}) {
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
  const returnTo = encodeURIComponent(`/${location.hash}`)
  return (
    <form class="card key-prompt" onSubmit={submit}>
      <h2>{t('key.title')}</h2>
      {problem ? (
        <p class="error" data-sign-in-error={problem}>
          {t(`sso.error.${problem}` as MessageKey)}
        </p>
      ) : null}
      {singleSignOn ? (
        singleSignOn.reachable ? (
          <p>
            <a
              class="button sso"
              href={`${singleSignOn.url}?return_to=${returnTo}`}
              onClick={forgetSignIn}
              data-sso="sign-in"
            >
              {t('sso.button', { provider: singleSignOn.provider })}
            </a>
          </p>
        ) : (
          <p class="error" data-sso="down" title={singleSignOn.problem ?? ''}>
            {t('sso.down', { provider: singleSignOn.provider })}
          </p>
        )
      ) : null}
      <p>{singleSignOn ? t('sso.or') : t('key.explain')}</p>
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

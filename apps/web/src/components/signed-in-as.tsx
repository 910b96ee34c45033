import { api, type Session } from '../api.ts'
import { useApp } from '../app-context.ts'

/** Who the page acts as, with the collections they may see, and the way out. */
export function SignedInAs({ principal }: { principal: NonNullable<Session['principal']> }) {
  const { t } = useApp()
  if (principal.kind === 'local') return null
  const signOut = async () => {
    await api.signOut().catch(() => undefined)
    location.reload()
  }
  return (
    <span class="signed-in" data-principal={principal.name}>
      <span
        title={t('who.collections', { list: principal.collections?.join(', ') ?? t('who.allCollections') })}
      >
        {t('who.signedInAs', { name: principal.name, role: principal.role })}
      </span>
      <button type="button" class="link" onClick={signOut} data-action="sign-out">
        {t('who.signOut')}
      </button>
    </span>
  )
}

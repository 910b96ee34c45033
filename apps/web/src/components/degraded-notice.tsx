import { useApp } from '../app-context.ts'
import type { MessageKey } from '../i18n.ts'

const EXPLAINED = ['vector', 'rerank', 'generate', 'fusion'] as const

/** What the answer or search had to do without, in plain words, and how to get it back. */
export function DegradedNotice({ degraded }: { degraded: string[] }) {
  const { t } = useApp()
  if (degraded.length === 0) return null
  const known = degraded.filter((what): what is (typeof EXPLAINED)[number] =>
    (EXPLAINED as readonly string[]).includes(what),
  )
  const other = degraded.filter((what) => !known.includes(what as (typeof EXPLAINED)[number]))
  return (
    <div class="muted degraded" data-testid="degraded">
      {known.map((what) => (
        <p key={what}>{t(`degraded.${what}` as MessageKey)}</p>
      ))}
      {other.length > 0 ? <p>{t('degraded.other', { what: other.join(', ') })}</p> : null}
      <p>{t('degraded.fix')}</p>
    </div>
  )
}

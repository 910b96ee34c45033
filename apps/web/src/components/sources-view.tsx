import { useState } from 'preact/hooks'
import { api, type Source, type SourceSync } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { SourceChangeForm } from './source-change-form.tsx'
import { SourceForm } from './source-form.tsx'
import { useInterval } from './use-interval.ts'

/** Where a source reads from, in one line. */
const placeOf = (source: Source) =>
  source.kind === 's3'
    ? `s3://${String(source.settings.bucket)}/${String(source.settings.prefix ?? '')}`
    : `${String(source.settings.url)}${source.settings.ref ? ` @ ${String(source.settings.ref)}` : ''}`

/**
 * Sources: the places kept in sync with collections, each with its last sync (its counts moving
 * while it runs, its failures with their reasons), a sync on demand and removal; editors and
 * admins add them. Refreshed every 2 s while a sync runs or was just asked for, every 15 s otherwise.
 */
export function SourcesView({ canEdit }: { canEdit: boolean }) {
  const { t } = useApp()
  const [sources, setSources] = useState<Source[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A sync just asked for (added, changed, synced now) may not be listed as running yet when the
  // list is next read: watched closely for a while, so its end shows within seconds, not 15.
  const [watchUntil, setWatchUntil] = useState(0)
  const running = sources?.some((source) => source.lastSync?.status === 'running') ?? false
  const refresh = () =>
    api
      .listSources()
      .then(({ sources }) => setSources(sources))
      .catch((failure) => setError(messageOf(failure)))
  useInterval(refresh, running || Date.now() < watchUntil ? 2000 : 15000)
  const syncAsked = () => {
    setWatchUntil(Date.now() + 60_000)
    return refresh()
  }
  const act = (action: () => Promise<unknown>) => async () => {
    setError(null)
    await action().catch((failure) => setError(messageOf(failure)))
    await syncAsked()
  }
  const status = (sync: SourceSync) => t(`sources.status.${sync.status}` as const)

  return (
    <section class="card sources">
      <p class="muted">{t('sources.intro')}</p>
      {canEdit ? <SourceForm onAdded={syncAsked} /> : null}
      <ErrorMessage message={error} testId="sources-error" />
      {sources?.length === 0 ? <p>{t('sources.none')}</p> : null}
      <ul class="source-list" data-testid="source-list">
        {(sources ?? []).map((source) => (
          <li
            key={source.id}
            data-source-name={source.name}
            data-sync-status={source.lastSync?.status ?? 'never'}
          >
            <strong>{source.name}</strong> <span class="badge">{source.kind}</span> → {source.collection}
            <div class="muted place">{placeOf(source)}</div>
            <div class="muted">
              {source.intervalMinutes
                ? t('sources.everyN', { n: String(source.intervalMinutes) })
                : t('sources.whenAsked')}
            </div>
            {source.lastSync ? (
              <div class="sync" data-testid="last-sync">
                <span class={`status ${source.lastSync.status}`}>{status(source.lastSync)}</span>{' '}
                {new Date(source.lastSync.startedAt).toLocaleString()} ·{' '}
                <span data-testid="sync-counts">
                  {t('sources.counts', {
                    seen: String(source.lastSync.seen),
                    added: String(source.lastSync.added),
                    changed: String(source.lastSync.changed),
                    unchanged: String(source.lastSync.unchanged),
                    deleted: String(source.lastSync.deleted),
                    failed: String(source.lastSync.failed),
                  })}
                </span>
                {source.lastSync.error ? <p class="error">{source.lastSync.error}</p> : null}
                {source.lastSync.failures.length > 0 ? (
                  <details>
                    <summary>{t('sources.failures')}</summary>
                    <ul>
                      {source.lastSync.failures.map((failure) => (
                        <li key={failure.key}>
                          <code>{failure.key}</code>: {failure.reason}
                        </li>
                      ))}
                    </ul>
                  </details>
                ) : null}
              </div>
            ) : (
              <div class="muted">{t('sources.never')}</div>
            )}
            {canEdit ? (
              <div class="actions">
                <button type="button" data-action="sync" onClick={act(() => api.syncSource(source.id))}>
                  {t('sources.syncNow')}
                </button>
                <button
                  type="button"
                  class="link"
                  data-action="remove"
                  onClick={() => {
                    if (confirm(t('sources.confirmRemove', { name: source.name })))
                      void act(() => api.removeSource(source.id))()
                  }}
                >
                  {t('sources.remove')}
                </button>
                <SourceChangeForm source={source} onChanged={syncAsked} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

import { DOCUMENT_STATUSES } from '@rag/api-contract/enums'
import type { DocumentStatus } from '../api.ts'
import { useApp } from '../app-context.ts'

/** A document's way to ready, in order (the contract's statuses but the failure). */
const STAGES = DOCUMENT_STATUSES.filter((status) => status !== 'failed')

/** Where a document is in parse → chunk → embed → store, as a row of steps and a bar. */
export function StageProgress({
  status,
  fraction,
  uploading,
  vectorsPending = 0,
}: {
  status: DocumentStatus | null
  /** Upload bytes while uploading, then the share of parts stored. */
  fraction: number
  uploading: boolean
  /** Ready for keyword search, but vectors wait for the embedding model: that step is not done. */
  vectorsPending?: number
}) {
  const { t } = useApp()
  const current = uploading ? -1 : STAGES.indexOf(status === 'failed' || !status ? 'queued' : status)
  const done = status === 'ready'
  return (
    <div class="stages" data-status={uploading ? 'uploading' : status}>
      <ol>
        <li class={uploading ? 'current' : 'done'}>{t('upload.uploading')}</li>
        {STAGES.map((stage, index) =>
          stage === 'embedding' && done && vectorsPending > 0 ? (
            <li key={stage} class="pending" title={t('docs.vectorsPending', { n: vectorsPending })}>
              {t('stage.embeddingPending')}
            </li>
          ) : (
            <li key={stage} class={index < current || done ? 'done' : index === current ? 'current' : ''}>
              {t(`stage.${stage}`)}
            </li>
          ),
        )}
      </ol>
      <progress max={1} value={done ? 1 : fraction} />
    </div>
  )
}

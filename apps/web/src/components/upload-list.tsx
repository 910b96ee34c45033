import type { DocumentView } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorMessage } from './error-message.tsx'
import { StageProgress } from './stage-progress.tsx'

export interface Upload {
  key: string
  filename: string
  state: 'uploading' | 'uploaded' | 'rejected'
  /** Bytes sent, 0..1. */
  fraction: number
  documentId?: string
  error?: string
}

/** This session's uploads, each followed through the stages by its document's status. */
export function UploadList({ uploads, documents }: { uploads: Upload[]; documents: DocumentView[] }) {
  const { t } = useApp()
  if (uploads.length === 0) return null
  return (
    <ul class="uploads">
      {uploads.map((upload) => {
        const document = documents.find((candidate) => candidate.id === upload.documentId)
        return (
          <li key={upload.key} class="card upload" data-filename={upload.filename}>
            <div class="row">
              <strong>{upload.filename}</strong>
              {document?.status === 'failed' ? <span class="badge failed">{t('stage.failed')}</span> : null}
            </div>
            {upload.state === 'rejected' ? (
              <ErrorMessage message={`${t('upload.rejected')}: ${upload.error}`} />
            ) : (
              <StageProgress
                status={document?.status ?? (upload.state === 'uploaded' ? 'queued' : null)}
                fraction={upload.state === 'uploading' ? upload.fraction : (document?.progress ?? 0)}
                uploading={upload.state === 'uploading'}
                vectorsPending={document?.vectorsPending ?? 0}
              />
            )}
            <ErrorMessage message={document?.error} />
          </li>
        )
      })}
    </ul>
  )
}

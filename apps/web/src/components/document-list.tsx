import { api, type DocumentView, type ModelState } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { Translate } from '../i18n.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'

/** Every document with its status, chunk count and error; delete and re-index. */
export function DocumentList({
  documents,
  onChange,
  embedding = null,
  canEdit = true,
  showModelNotice = true,
}: {
  documents: DocumentView[]
  onChange: () => Promise<void>
  /** The embedding model's state: why vectors wait, said on the documents whose vectors do. */
  embedding?: ModelState
  /** Re-index and delete offered (an editor or admin); a reader is not shown what it cannot do. */
  canEdit?: boolean
  /** Why vectors wait, for someone who can act on it (an admin). */
  showModelNotice?: boolean
}) {
  const { t } = useApp()
  const waitingFor = vectorsWaitFor(t, embedding)
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action()
    } catch (failure) {
      alert(messageOf(failure))
    }
    await onChange()
  }
  return (
    <section>
      <h2>{t('docs.title')}</h2>
      {documents.length === 0 ? <p class="muted">{t('docs.empty')}</p> : null}
      {/* Said once, above the list: every waiting document waits for the same model. */}
      {showModelNotice && waitingFor && documents.some((document) => document.vectorsPending > 0) ? (
        <p class="muted vectors-wait" data-testid="vectors-wait">
          {waitingFor}
        </p>
      ) : null}
      <ul class="documents">
        {documents.map((document) => (
          <li
            key={document.id}
            class="card document"
            data-filename={document.filename}
            data-collection={document.collection}
            data-status={document.status}
          >
            <div class="row">
              <a
                class="filename"
                href={`#/documents/${document.id}`}
                data-action="inspect"
                title={t('inspect.open')}
              >
                <strong>{document.filename}</strong>
              </a>
              <span class={`badge ${document.status}`}>{t(`stage.${document.status}`)}</span>
            </div>
            <div class="row muted">
              <span>
                <span class="collection">{document.collection}</span> · {document.type} ·{' '}
                {document.chunkCount === 1
                  ? t('docs.oneChunk')
                  : t('docs.chunks', { n: document.chunkCount })}
                {document.vectorsPending > 0
                  ? ` · ${t('docs.vectorsPending', { n: document.vectorsPending })}`
                  : ''}
                {document.ocrPages ? (
                  <span class="ocr-progress"> · {t('docs.ocrPages', document.ocrPages)}</span>
                ) : null}
              </span>
              {canEdit ? (
                <span class="actions">
                  <button
                    type="button"
                    class="link"
                    onClick={() => act(() => api.reindexDocument(document.id))}
                  >
                    {t('docs.reindex')}
                  </button>
                  <button
                    type="button"
                    class="link danger"
                    onClick={() =>
                      confirm(t('docs.confirmDelete', { name: document.filename })) &&
                      act(() => api.deleteDocument(document.id))
                    }
                  >
                    {t('docs.delete')}
                  </button>
                </span>
              ) : null}
            </div>
            <ErrorMessage message={document.error} />
            {document.missingPages.length > 0 ? (
              <details class="missing-pages">
                <summary>{t('docs.missingPages', { n: document.missingPages.length })}</summary>
                <ul>
                  {document.missingPages.map(({ page, reason }) => (
                    <li key={page}>{t('docs.missingPage', { page, reason })}</li>
                  ))}
                </ul>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** What a document's pending vectors wait for, in words (null: the model is there, they are on their way). */
function vectorsWaitFor(t: Translate, embedding: ModelState): string | null {
  if (embedding === null) return t('docs.vectorsNoWorker')
  switch (embedding.state) {
    case 'disabled':
      return t('docs.vectorsOff')
    case 'loading':
      return t('docs.vectorsLoading')
    case 'unavailable':
      return t('docs.vectorsUnavailable', { model: embedding.model, error: embedding.error })
    default:
      return null
  }
}

import { isDocumentFinished } from '@rag/api-contract/enums'
import { useState } from 'preact/hooks'
import { api, collectionsOf, type DocumentView, embeddingModelState, type ModelState } from '../api.ts'
import { useApp } from '../app-context.ts'
import { CollectionSelect } from './collection-select.tsx'
import { DocumentList } from './document-list.tsx'
import { ErrorMessage } from './error-message.tsx'
import { SynonymsEditor } from './synonyms-editor.tsx'
import { synonymsCollectionFromHash } from './synonyms-link.tsx'
import { UploadList } from './upload-list.tsx'
import { useInterval } from './use-interval.ts'
import type { Uploads } from './use-uploads.ts'

const isWorking = (document: DocumentView | undefined) => !document || !isDocumentFinished(document.status)

/** Drop files, watch each go through the stages, manage what is indexed. */
export function DocumentsView({
  uploads,
  canEdit,
  isAdmin,
}: {
  uploads: Uploads
  /** An editor or admin: uploads, re-indexes and deletes (a reader is shown none of it). */
  canEdit: boolean
  /** Only an admin can act on a model notice (downloads, workers). */
  isAdmin: boolean
}) {
  const { t } = useApp()
  const [documents, setDocuments] = useState<DocumentView[]>([])
  const [error, setError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  // Where new files go, and which collection the list shows ('' = the default / all).
  const [target, setTarget] = useState('')
  // Opened from a synonyms link (Feedback, Evaluation): that collection, its editor in view.
  const [linked] = useState(() => synonymsCollectionFromHash(location.hash))
  const [filter, setFilter] = useState(linked ?? '')
  const [embedding, setEmbedding] = useState<ModelState>(null)
  const collections = collectionsOf(documents)
  // Poll briskly while anything is on its way: an upload, or a document not yet ready or failed.
  const busy =
    documents.some(isWorking) ||
    uploads.list.some(
      (upload) =>
        upload.state === 'uploading' ||
        (upload.state === 'uploaded' &&
          isWorking(documents.find((document) => document.id === upload.documentId))),
    )

  const refresh = async () => {
    try {
      const { documents } = await api.listDocuments()
      setDocuments(documents)
      // Vectors waiting: say what for (the embedding model's state), not just that they wait.
      if (documents.some((document) => document.vectorsPending > 0))
        setEmbedding(await embeddingModelState().catch(() => null))
      setError(null)
    } catch (failure) {
      setError(
        failure instanceof Error && failure.message !== 'Failed to fetch'
          ? failure.message
          : t('error.network'),
      )
    }
  }
  useInterval(refresh, busy ? 1000 : 10_000)

  const upload = (files: File[]) => uploads.add(files, target.trim() || undefined)

  return (
    <section>
      {canEdit ? (
        <label
          class={`dropzone${dragging ? ' dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault()
            setDragging(false)
            upload([...(event.dataTransfer?.files ?? [])])
          }}
        >
          <strong>{t('upload.drop')}</strong>
          <span>{t('upload.choose')}</span>
          <input
            type="file"
            multiple
            data-testid="file-input"
            onChange={(event) => {
              upload([...(event.currentTarget.files ?? [])])
              event.currentTarget.value = ''
            }}
          />
        </label>
      ) : null}
      <div class="row collections">
        {canEdit ? (
          <label>
            {t('docs.uploadTo')}{' '}
            <input
              list="collection-names"
              placeholder={filter || 'default'}
              value={target}
              data-testid="upload-collection"
              onInput={(event) => setTarget(event.currentTarget.value)}
            />
          </label>
        ) : null}
        <datalist id="collection-names">
          {collections.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        <CollectionSelect
          label={t('docs.collection')}
          allLabel={t('docs.allCollections')}
          collections={collections}
          value={filter}
          onChange={(shown) => {
            // New files go where the list looks, unless another collection was typed for them.
            if (target === '' || target === filter) setTarget(shown)
            setFilter(shown)
          }}
          testId="collection-filter"
        />
      </div>
      <UploadList uploads={uploads.list} documents={documents} />
      <ErrorMessage message={error} />
      <DocumentList
        documents={filter ? documents.filter((document) => document.collection === filter) : documents}
        onChange={refresh}
        embedding={embedding}
        canEdit={canEdit}
        showModelNotice={isAdmin}
      />
      {filter && canEdit ? <SynonymsEditor collection={filter} focus={filter === linked} /> : null}
    </section>
  )
}

import { useEffect, useState } from 'preact/hooks'
import { api, type DocumentChunksPage, type DocumentView } from '../api.ts'
import { useApp } from '../app-context.ts'
import { sheetRowOf, tableRowOf } from '../table-row.ts'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { InspectorPages } from './inspector-pages.tsx'
import { TableRowView } from './table-row-view.tsx'

type Chunk = DocumentChunksPage['chunks'][number]

/**
 * One document as the index holds it: its chunks in reading order (heading paths, tables as
 * tables, OCR marked, the questions that cited each), searchable; its pages with every chunk's
 * boxes drawn (PDFs and scans); the pages that could not be read, with why.
 */
export function DocumentInspector({ id }: { id: string }) {
  const { t } = useApp()
  const [document, setDocument] = useState<DocumentView | null>(null)
  const [chunks, setChunks] = useState<Chunk[]>([])
  const [total, setTotal] = useState(0)
  const [next, setNext] = useState<number | null>(null)
  const [query, setQuery] = useState('')
  const [searched, setSearched] = useState('')
  const [page, setPage] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)

  const load = async (q: string, offset: number) => {
    try {
      const found = await api.documentChunks(id, { q: q || undefined, offset })
      setChunks((shown) => (offset === 0 ? found.chunks : [...shown, ...found.chunks]))
      setTotal(found.total)
      setNext(found.next ? offset + found.chunks.length : null)
      setError(null)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  useEffect(() => {
    api.getDocument(id).then(setDocument, (failure: unknown) => setError(messageOf(failure)))
    void load('', 0)
  }, [id])

  const hasPages = chunks.some((chunk) => chunk.regions.length > 0)
  return (
    <section class="inspector" data-testid="inspector">
      <p>
        <a href="#/documents" data-action="back">
          {t('inspect.back')}
        </a>
      </p>
      <h2>{document?.filename ?? '…'}</h2>
      {document ? (
        <p class="muted">
          <span class={`badge ${document.status}`}>{t(`stage.${document.status}`)}</span>{' '}
          {document.collection} · {document.type} · {t('docs.chunks', { n: document.chunkCount })}
        </p>
      ) : null}
      <ErrorMessage message={error} />
      {document && document.missingPages.length > 0 ? (
        <details class="missing-pages" data-testid="inspector-missing" open>
          <summary>{t('docs.missingPages', { n: document.missingPages.length })}</summary>
          <ul>
            {document.missingPages.map((missing) => (
              <li key={missing.page}>{t('docs.missingPage', missing)}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {document && document.ocrReadings.length > 0 ? (
        <details class="ocr-readings" data-testid="inspector-ocr">
          <summary>
            {t('docs.ocrReadings', {
              n: document.ocrReadings.length,
              lowest: Math.round(Math.min(...document.ocrReadings.map((reading) => reading.confidence))),
            })}
          </summary>
          <ul>
            {document.ocrReadings.map((reading) => (
              <li key={reading.page}>
                {t('docs.ocrReading', {
                  page: reading.page,
                  confidence: Math.round(reading.confidence),
                  direction: t(`docs.ocrDirection.${reading.direction}`),
                })}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {document && hasPages ? (
        <InspectorPages document={document} page={page ?? firstPage(chunks)} onPage={setPage} />
      ) : null}
      <form
        class="row inspector-search"
        onSubmit={(event) => {
          event.preventDefault()
          setSearched(query.trim())
          void load(query.trim(), 0)
        }}
      >
        <input
          type="search"
          data-testid="inspector-search"
          aria-label={t('inspect.search')}
          placeholder={t('inspect.search')}
          maxLength={200}
          value={query}
          onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
        />
        <button type="submit">{t('inspect.find')}</button>
      </form>
      <p class="muted" data-testid="inspector-count">
        {searched ? t('inspect.matches', { n: total, q: searched }) : t('inspect.count', { n: total })}
      </p>
      <ol class="chunks" data-testid="inspector-chunks">
        {chunks.map((chunk, index) => (
          <ChunkCard key={`${chunk.sourceId}-${index}`} chunk={chunk} onPage={setPage} />
        ))}
      </ol>
      {next !== null ? (
        <button type="button" data-action="more" onClick={() => void load(searched, next)}>
          {t('inspect.more')}
        </button>
      ) : null}
    </section>
  )
}

const firstPage = (chunks: Chunk[]) => chunks.find((chunk) => chunk.regions.length > 0)?.regions[0]?.page ?? 1

function ChunkCard({ chunk, onPage }: { chunk: Chunk; onPage: (page: number) => void }) {
  const { t } = useApp()
  const row = tableRowOf(chunk.sourceId, chunk.text) ?? sheetRowOf(chunk.sourceId, chunk.text)
  const page = chunk.regions[0]?.page
  return (
    <li class="card chunk" data-source-id={chunk.sourceId}>
      <div class="row">
        <span class="source-id">{chunk.sourceId}</span>
        <span>
          {chunk.ocr ? <span class="badge">{t('inspect.ocr')}</span> : null}
          {page !== undefined ? (
            <button type="button" class="link" data-action="show-page" onClick={() => onPage(page)}>
              {t('source.showPage', { page: String(page) })}
            </button>
          ) : null}
        </span>
      </div>
      {chunk.heading ? <div class="muted heading">{chunk.heading}</div> : null}
      {row ? <TableRowView row={row} testId="inspector-table" /> : <p class="text">{chunk.text}</p>}
      {chunk.citedBy.length > 0 ? (
        <details class="cited-by" data-testid="cited-by">
          <summary>{t('inspect.citedBy', { n: chunk.citedBy.length })}</summary>
          <ul>
            {chunk.citedBy.map((question) => (
              <li key={question.questionId}>
                {question.question}
                <span class="muted">
                  {' '}
                  · {new Date(question.askedAt).toLocaleString()}
                  {question.refused ? ` · ${t('ask.refused')}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  )
}

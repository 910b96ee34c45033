import { useEffect, useState } from 'preact/hooks'
import { api, type DocumentView } from '../api.ts'
import { useApp } from '../app-context.ts'
import { messageOf } from './error-message.tsx'
import { PageView, type Region } from './page-view.tsx'

/**
 * A document's pages one at a time, as pictures the gateway renders (and caches), with the boxes
 * of every chunk read from the page drawn over it: how the page was cut.
 */
export function InspectorPages({
  document,
  page,
  onPage,
}: {
  document: DocumentView
  page: number
  onPage: (page: number) => void
}) {
  const { t } = useApp()
  const [pages, setPages] = useState<number | null>(null)
  const [regions, setRegions] = useState<Region[]>([])
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api.pageInfo(document.id, page).then(
      (info) => setPages(info.pages),
      (failure: unknown) => setError(messageOf(failure)),
    )
    // Every chunk on the page (a page holds a few; 50 is more than any page is cut into).
    api.documentChunks(document.id, { page }).then(
      (found) => setRegions(found.chunks.flatMap((chunk) => chunk.regions)),
      (failure: unknown) => setError(messageOf(failure)),
    )
  }, [document.id, page])
  const passage = { documentId: document.id, title: document.filename }
  return (
    <section class="inspector-pages" data-testid="inspector-pages">
      <div class="row">
        <button
          type="button"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          data-action="previous-page"
        >
          {t('inspect.previousPage')}
        </button>
        <span data-testid="inspector-page">{t('inspect.page', { page, pages: pages ?? '…' })}</span>
        <button
          type="button"
          disabled={pages !== null && page >= pages}
          onClick={() => onPage(page + 1)}
          data-action="next-page"
        >
          {t('inspect.nextPage')}
        </button>
      </div>
      {error ? <p role="alert">{error}</p> : <PageView passage={passage} page={page} regions={regions} />}
    </section>
  )
}

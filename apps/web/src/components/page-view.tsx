import { useEffect, useState } from 'preact/hooks'
import { api, type Passage } from '../api.ts'
import { useApp } from '../app-context.ts'
import { messageOf } from './error-message.tsx'

export type Region = NonNullable<Passage['regions']>[number]

/**
 * A cited passage shown where it stands: its page as a picture (rendered by the gateway) with the
 * passage's regions drawn over it, scaled from the page's points to the picture's width.
 */
export function PageView({
  passage,
  page,
  regions,
}: {
  passage: Pick<Passage, 'documentId' | 'title'>
  page: number
  regions: Region[]
}) {
  const { t } = useApp()
  const [size, setSize] = useState<{ width: number; height: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    api.pageInfo(passage.documentId, page).then(setSize, (failure: unknown) => setError(messageOf(failure)))
  }, [passage.documentId, page])
  if (error) return <p role="alert">{error}</p>
  if (!size) return null
  const percent = (value: number, of: number) => `${((value / of) * 100).toFixed(3)}%`
  return (
    <figure class="page-view" data-testid="page-view" data-page={page}>
      <img
        src={`/documents/${passage.documentId}/pages/${page}/image?width=800`}
        alt={t('source.pageAlt', { page: String(page), title: passage.title })}
        width={800}
        style={{ aspectRatio: `${size.width} / ${size.height}` }}
      />
      {regions
        .filter((region) => region.page === page)
        .map((region, index) => (
          <span
            key={index}
            class="region"
            data-testid="page-region"
            style={{
              left: percent(region.x, size.width),
              top: percent(region.y, size.height),
              width: percent(region.width, size.width),
              height: percent(region.height, size.height),
            }}
          />
        ))}
    </figure>
  )
}

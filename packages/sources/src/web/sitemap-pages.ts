import type { GuardedFetcher } from '@rag/ingest'
import { describeError, SourceListingError } from '../source-listing.ts'
import { readSitemap } from './sitemap.ts'

/** Sitemaps read for one listing (an index of indexes of …: a sitemap bomb stops here). */
export const MAX_SITEMAPS = 50
/** An index may list sitemaps, and those may be indexes once more; deeper is refused. */
const MAX_NESTING = 2

/**
 * The pages a sitemap lists, through its indexes: at most MAX_SITEMAPS sitemaps, MAX_NESTING
 * levels, each at most `maxBytes` unpacked, all on the site, and at most `maxPages` pages. Any of
 * them unreadable stops the listing (an incomplete sitemap must not delete the pages it failed to list).
 */
export async function sitemapPages(
  fetcher: GuardedFetcher,
  url: string,
  {
    origin,
    headers,
    maxBytes,
    maxPages,
    signal,
  }: {
    origin: string
    headers: Record<string, string>
    maxBytes: number
    maxPages: number
    signal: AbortSignal
  },
): Promise<{ pages: string[]; truncated: boolean }> {
  const pages: string[] = []
  const queue = [{ url, nesting: 0 }]
  const seen = new Set([url])
  for (let entry = queue.shift(); entry; entry = queue.shift()) {
    let entries: Awaited<ReturnType<typeof readSitemap>>
    try {
      const response = await fetcher.get(entry.url, { headers, takes: () => true, origin, signal })
      if (response.status !== 200) throw new Error(`answered ${response.status}`)
      entries = await readSitemap(response.body, maxBytes)
    } catch (error) {
      throw new SourceListingError(`the sitemap ${entry.url} cannot be read: ${describeError(error)}`)
    }
    for (const page of entries.pages) {
      // Sitemaps past the page limit are not read: the listing is incomplete anyway.
      if (pages.length >= maxPages) return { pages, truncated: true }
      pages.push(page)
    }
    for (const sitemap of entries.sitemaps) {
      if (seen.has(sitemap)) continue
      if (entry.nesting + 1 > MAX_NESTING)
        throw new SourceListingError(`sitemaps nest deeper than ${MAX_NESTING} levels (${entry.url})`)
      if (seen.size >= MAX_SITEMAPS)
        throw new SourceListingError(`more than ${MAX_SITEMAPS} sitemaps under ${url}`)
      if (new URL(sitemap, entry.url).origin !== origin) continue
      seen.add(sitemap)
      queue.push({ url: sitemap, nesting: entry.nesting + 1 })
    }
  }
  return { pages, truncated: false }
}

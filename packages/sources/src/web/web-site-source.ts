import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { type GuardedResponse, guardedFetcher, WebPageError } from '@rag/ingest'
import { detectSourceType } from '@rag/parsers'
import { addressAllowed, type OutboundPolicy } from '../network/outbound-policy.ts'
import {
  describeError,
  ItemError,
  type KnownItem,
  type ReadLimits,
  type SourceItem,
  SourceListingError,
  type SourceReader,
} from '../source-listing.ts'
import { pageLinks, sameSiteUrl } from './page-links.ts'
import { type Robots, siteRobots } from './site-robots.ts'
import { sitemapPages } from './sitemap-pages.ts'

export interface WebSiteSettings {
  /** The start page, or a sitemap (a URL ending `.xml` or `.xml.gz`). */
  url: string
  /** How many links away from the start (or from the sitemap's pages) pages are taken. */
  depth?: number
}

export interface WebSiteLimits extends ReadLimits {
  maxRedirects: number
  /** Where its connections may go (private addresses only as SOURCES_ALLOW_PRIVATE lists them). */
  policy: OutboundPolicy
  /** Sent with every request (the fetcher keeps requests on the site, so it goes nowhere else). */
  authorization?: string | undefined
}

/** Links followed from a start page by default; a sitemap's pages are the listing by default. */
export const DEFAULT_DEPTH = 3
/** Pages fetched at once (a site's own Crawl-delay makes it one at a time). */
const PAGES_AT_ONCE = 4
/** A Crawl-delay above this is taken as this: a sync must end. */
const MAX_CRAWL_DELAY_S = 10
const HTML = /^(text\/html|application\/xhtml\+xml)\b/i
/** Answers that may change by the next sync: a page answering them is not deleted. */
const NOT_FOR_GOOD = new Set([401, 403, 407, 408, 425, 429])

/** Linked files read as documents (a site's PDFs and spreadsheets); its images are decoration. */
const isDocumentLink = (url: URL) => {
  const type = detectSourceType(decoded(url.pathname))
  return type !== null && type !== 'html' && type !== 'image'
}

type InFlight = { id: number; depth: number } & ({ page: Fetched } | { error: unknown })

interface Fetched {
  item?: SourceItem
  /** The links to follow from it (an unchanged page's are those it had). */
  links?: string[]
  /** Why the listing is incomplete (a page with more links than are taken). */
  incomplete?: string
  /** Why it is not an item: not there, not a page. */
  missing?: string
}

/**
 * A web site: its pages from a start page by same-site links (or from a sitemap), to a depth,
 * as `robots.txt` allows and at its Crawl-delay. Every fetch goes through the guarded fetcher of
 * URL ingestion (public addresses unless allowed, redirects checked and kept on the site, time and
 * size limits). A page synced before is asked for with its validators (ETag, Last-Modified): a 304
 * is not read again and its links are those it had. A page's version is its content's hash, so a
 * server without validators still re-parses nothing unchanged. Pages are read while listing (their
 * links are the listing), so items carry their bytes.
 */
export function webSiteSource(settings: WebSiteSettings, limits: WebSiteLimits): SourceReader {
  const start = new URL(settings.url)
  start.hash = ''
  const origin = start.origin
  const isSitemap = /\.xml(\.gz)?$/i.test(start.pathname)
  const maxDepth = settings.depth ?? (isSitemap ? 0 : DEFAULT_DEPTH)
  const fetcher = guardedFetcher(
    {
      maxBytes: limits.maxBytes,
      timeoutMs: limits.requestTimeoutMs,
      maxRedirects: limits.maxRedirects,
      allowPrivate: false,
      privateRule: 'SOURCES_ALLOW_PRIVATE',
      ...(limits.policy.resolve ? { resolve: limits.policy.resolve } : {}),
    },
    (address, host) => !addressAllowed(limits.policy, host, address),
  )

  const auth: Record<string, string> = limits.authorization ? { authorization: limits.authorization } : {}

  async function fetchPage(url: string, known: KnownItem | undefined, signal: AbortSignal): Promise<Fetched> {
    const document = isDocumentLink(new URL(url))
    const extra = (known?.extra ?? {}) as { etag?: string; lastModified?: string; links?: string[] }
    const headers: Record<string, string> = {
      ...auth,
      accept: document ? '*/*' : 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      ...(known && extra.etag ? { 'if-none-match': extra.etag } : {}),
      ...(known && extra.lastModified ? { 'if-modified-since': extra.lastModified } : {}),
    }
    let response: GuardedResponse
    try {
      response = await fetcher.get(url, {
        headers,
        takes: (type) => document || HTML.test(type),
        origin,
        signal,
      })
    } catch (error) {
      if (!(error instanceof WebPageError)) throw error
      // Not there (any more), or not a page (an image behind an extension-less link): not an item.
      if (error.answered === 404 || error.answered === 410 || error.status === 415)
        return { missing: error.message }
      // Refused now (credentials expired, a permission, too many requests), or no answer: that may
      // pass, so nothing is deleted. Anything else is its own for good (off the site, on a private
      // address, too large, a request it calls bad): deletions go on.
      const refused =
        error.answered === undefined
          ? error.status !== 502 && error.status !== 504
          : error.answered < 500 && !NOT_FOR_GOOD.has(error.answered)
      // The server failing now: nothing is deleted, and its links (as last seen) are still followed.
      return {
        item: { key: url, version: '', failure: { reason: error.message, refused } },
        links: extra.links,
      }
    }
    if (response.status === 304) {
      const version = known?.version ?? ''
      return {
        item: document
          ? { key: url, name: nameOf(url), version, extra }
          : { key: url, webPage: true, version, extra },
        links: extra.links,
      }
    }
    const version = `sha256:${createHash('sha256').update(response.body).digest('hex')}`
    const validators = {
      ...(response.etag ? { etag: response.etag } : {}),
      ...(response.lastModified ? { lastModified: response.lastModified } : {}),
    }
    if (document) {
      const item = { key: response.url, name: nameOf(response.url), version, content: response.body }
      return { item: { ...item, extra: validators } }
    }
    const page = await pageLinks(Buffer.from(response.body).toString('utf8'), response.url, origin)
    return {
      ...(page.noindex
        ? {}
        : {
            item: {
              key: response.url,
              webPage: true,
              version,
              content: response.body,
              extra: { ...validators, links: page.links },
            },
          }),
      links: page.links,
      ...(page.truncated
        ? { incomplete: `${response.url} has more links than are followed from one page` }
        : {}),
    }
  }

  return {
    async *list(known, signal) {
      const robots: Robots = await siteRobots(fetcher, origin, auth, signal)
      const delayMs = Math.min(robots.crawlDelaySeconds ?? 0, MAX_CRAWL_DELAY_S) * 1000
      const queue: { url: string; depth: number }[] = []
      const queued = new Set<string>()
      const yielded = new Set<string>()
      // Why the listing is incomplete (then nothing is deleted), each said once.
      const incomplete = new Set<string>()
      const enqueue = (url: string, depth: number) => {
        if (queued.has(url) || !robots.allows(url)) return
        if (queued.size >= limits.maxItems) {
          incomplete.add(
            `the site has more than ${limits.maxItems} pages within ${maxDepth} links (SOURCE_MAX_ITEMS)`,
          )
          return
        }
        queued.add(url)
        queue.push({ url, depth })
      }
      if (isSitemap) {
        const { pages, truncated } = await sitemapPages(fetcher, start.href, {
          origin,
          headers: auth,
          maxBytes: limits.maxBytes,
          maxPages: limits.maxItems,
          signal,
        })
        if (truncated)
          incomplete.add(`the sitemap lists more than ${limits.maxItems} pages (SOURCE_MAX_ITEMS)`)
        for (const page of pages) {
          const url = sameSiteUrl(page, start, origin)
          if (url) enqueue(url, 0)
        }
      } else {
        if (!robots.allows(start.href))
          throw new SourceListingError(`robots.txt does not allow ${start.href}`)
        enqueue(start.href, 0)
      }
      let first = !isSitemap
      // A window of pages in flight (not batches: one slow page does not hold the others back).
      const window = delayMs > 0 ? 1 : PAGES_AT_ONCE
      const inFlight = new Map<number, Promise<InFlight>>()
      let next = 0
      while (queue.length > 0 || inFlight.size > 0) {
        if (signal.aborted) throw new SourceListingError('the sync was stopped')
        while (inFlight.size < window && queue.length > 0) {
          const entry = queue.shift() as { url: string; depth: number }
          const id = next++
          // Settled either way, so a page failing after the listing stopped is nobody's unhandled error.
          inFlight.set(
            id,
            fetchPage(entry.url, known.get(entry.url), signal).then(
              (page) => ({ id, depth: entry.depth, page }),
              (error: unknown) => ({ id, depth: entry.depth, error }),
            ),
          )
        }
        const done = await Promise.race(inFlight.values())
        inFlight.delete(done.id)
        if ('error' in done) throw done.error
        const { page, depth } = done
        // The start page not there: the site is not (an empty listing would delete everything).
        const unread = page.missing ?? page.item?.failure?.reason
        if (first && unread !== undefined)
          throw new SourceListingError(`the start page ${start.href} cannot be read: ${unread}`)
        first = false
        if (page.incomplete) incomplete.add(page.incomplete)
        if (depth < maxDepth) for (const link of page.links ?? []) enqueue(link, depth + 1)
        if (page.item && !yielded.has(page.item.key)) {
          yielded.add(page.item.key)
          queued.add(page.item.key)
          yield page.item
        }
        if (delayMs > 0 && queue.length > 0) await sleep(delayMs, undefined, { signal }).catch(() => {})
      }
      if (incomplete.size > 0)
        throw new SourceListingError(`${[...incomplete].join('; ')}: nothing was deleted`)
    },
    async read(item, _maxBytes, signal) {
      if (item.content) return item.content
      try {
        const response = await fetcher.get(item.key, { headers: auth, takes: () => true, origin, signal })
        if (response.status === 200) return response.body
      } catch (error) {
        throw new ItemError(`could not read it: ${describeError(error)}`)
      }
      throw new ItemError('the server answered 304 to a plain request')
    },
    close: () => fetcher.close(),
  }
}

/** A linked file's document name: its host and path (`example.com/files/prices.pdf`). */
const nameOf = (url: string) => {
  const { host, pathname } = new URL(url)
  return `${host}${decoded(pathname)}`
}

const decoded = (path: string) => {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

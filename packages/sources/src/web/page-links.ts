/** Links a page may give the crawl (a page of 100,000 links gives its first this many). */
export const MAX_LINKS_PER_PAGE = 10_000
/** A URL longer than this is a generated one (a calendar, a session), not a page of the site. */
const MAX_URL_LENGTH = 2000

export interface PageLinks {
  /** Same-site links, absolute, without fragments, each once, in document order. */
  links: string[]
  /** `<meta name="robots" content="noindex">`: the page is not a document (its links still count). */
  noindex: boolean
  /** `nofollow` (in the meta or on every link): its links are not followed. */
  nofollow: boolean
  /** It had more links than MAX_LINKS_PER_PAGE. */
  truncated: boolean
}

/**
 * The page's same-origin links (`<a href>`, `<base href>` honoured) and what its robots meta says.
 * cheerio is imported here, when a site is crawled: the gateway imports this package too (~0.4 s).
 */
export async function pageLinks(html: string, pageUrl: string, origin: string): Promise<PageLinks> {
  const cheerio = await import('cheerio')
  const $ = cheerio.load(html)
  const robots = $('meta[name="robots" i], meta[name="rag-platform" i]')
    .toArray()
    .map((meta) => ($(meta).attr('content') ?? '').toLowerCase())
    .join(',')
  const noindex = /\b(noindex|none)\b/.test(robots)
  const nofollow = /\b(nofollow|none)\b/.test(robots)
  let base: URL
  try {
    base = new URL($('base[href]').first().attr('href') ?? pageUrl, pageUrl)
  } catch {
    base = new URL(pageUrl)
  }
  const links = new Set<string>()
  let truncated = false
  if (!nofollow) {
    for (const anchor of $('a[href], area[href]').toArray()) {
      if (/\bnofollow\b/i.test($(anchor).attr('rel') ?? '')) continue
      const link = sameSiteUrl($(anchor).attr('href') ?? '', base, origin)
      if (!link || links.has(link)) continue
      if (links.size >= MAX_LINKS_PER_PAGE) {
        truncated = true
        break
      }
      links.add(link)
    }
  }
  return { links: [...links], noindex, nofollow, truncated }
}

/** `href` as an absolute URL of the site (fragment dropped), or null: elsewhere, not http(s), too long. */
export function sameSiteUrl(href: string, base: URL | string, origin: string): string | null {
  let url: URL
  try {
    url = new URL(href.trim(), base)
  } catch {
    return null
  }
  if (url.origin !== origin || url.username || url.password) return null
  url.hash = ''
  return url.href.length > MAX_URL_LENGTH ? null : url.href
}

import { promisify } from 'node:util'
import { gunzip } from 'node:zlib'

const unzip = promisify(gunzip)

/** What a sitemap lists: pages, or (an index) more sitemaps. */
export interface SitemapEntries {
  pages: string[]
  sitemaps: string[]
}

/**
 * A sitemap's entries (sitemaps.org: `<urlset><url><loc>` or `<sitemapindex><sitemap><loc>`), from
 * its bytes — gzipped or not, whatever the server says. Unpacked on the thread pool, never past
 * `maxBytes`: a gzip bomb stops there with a reason. A plain-text sitemap (one URL a line) is read too.
 * Read by one linear scan of its `<loc>`s, not a parsed tree: a 50 MB sitemap holds the event loop
 * for as little as it can.
 */
export async function readSitemap(body: Uint8Array, maxBytes: number): Promise<SitemapEntries> {
  let bytes = body
  if (body[0] === 0x1f && body[1] === 0x8b) {
    bytes = await unzip(body, { maxOutputLength: maxBytes }).catch((error: unknown) => {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new Error(`the sitemap unpacks to more than ${maxBytes} bytes (the limit)`)
      throw new Error(`the sitemap is not valid gzip: ${(error as Error).message}`)
    })
  }
  const text = Buffer.from(bytes).toString('utf8')
  if (!/^\s*(<\?xml|<)/.test(text)) {
    const pages = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//.test(line))
    return { pages, sitemaps: [] }
  }
  const locs = [...text.matchAll(LOC)].map((match) => unescapeXml(match[1] ?? '').trim()).filter(Boolean)
  return /<(\w+:)?sitemapindex[\s>]/.test(text)
    ? { pages: [], sitemaps: locs }
    : { pages: locs, sitemaps: [] }
}

const LOC = /<(?:\w+:)?loc>\s*(?:<!\[CDATA\[)?([^<\]]*)(?:\]\]>)?\s*<\/(?:\w+:)?loc>/g
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const unescapeXml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? '')

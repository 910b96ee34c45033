import { guardedFetcher, type WebFetchLimits, WebPageError } from './guarded-fetcher.ts'
import { isPrivateAddress } from './private-address.ts'

export { type WebFetchLimits, WebPageError }

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i

/**
 * Fetches a web page for ingestion, within the guarded fetcher's limits (http(s), public
 * addresses unless allowed, redirects, time, size) and with an HTML content type. Returns the page
 * and the URL it came from after redirects.
 */
export async function fetchWebPage(
  raw: string,
  limits: WebFetchLimits,
  /** Which addresses count as private (tests name their own). */
  isBlocked: (address: string) => boolean = (address) => isPrivateAddress(address),
): Promise<{ url: string; html: Uint8Array }> {
  const fetcher = guardedFetcher(limits, isBlocked)
  try {
    const page = await fetcher
      .get(raw, { headers: { accept: 'text/html,application/xhtml+xml' }, takes: (type) => HTML.test(type) })
      .catch((error: unknown) => {
        if (error instanceof WebPageError && error.status === 415)
          throw new WebPageError(415, error.message.replace(/is not taken/, 'is not an HTML page'))
        throw error
      })
    if (page.status !== 200) throw new WebPageError(502, `${raw} answered 304 to a plain request`)
    return { url: page.url, html: page.body }
  } finally {
    await fetcher.close()
  }
}

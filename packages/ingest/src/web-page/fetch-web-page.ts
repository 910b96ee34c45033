import { lookup } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, type Dispatcher, fetch } from 'undici'
import { isPrivateAddress } from './private-address.ts'

export interface WebFetchLimits {
  maxBytes: number
  timeoutMs: number
  maxRedirects: number
  /** Loopback and private networks may be fetched (an intranet); off by default (SSRF). */
  allowPrivate: boolean
}

/** The page cannot be taken; `status` is what the API answers (the message says why). */
export class WebPageError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422 | 502 | 504,
    message: string,
  ) {
    super(message)
    this.name = 'WebPageError'
  }
}

const HTML = /^(text\/html|application\/xhtml\+xml)\b/i

/**
 * Connections that resolve a name to a private address are refused at connect time: the check
 * cannot be passed by a name that resolves differently later (DNS rebinding).
 */
function guardedAgent(allowPrivate: boolean, isBlocked: (address: string) => boolean): Dispatcher {
  return new Agent({
    connect: {
      lookup: (hostname, options, callback) =>
        lookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, [])
          const blocked = allowPrivate ? undefined : addresses.find((a) => isBlocked(a.address))
          if (blocked)
            return callback(
              Object.assign(new Error(`${hostname} is a private address (${blocked.address})`), {
                code: 'EPRIVATE',
              }),
              [],
            )
          callback(null, addresses)
        }),
    },
  })
}

function checkedUrl(raw: string, allowPrivate: boolean, isBlocked: (address: string) => boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new WebPageError(400, `not a URL: ${raw.slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebPageError(400, `only http and https pages are fetched, not ${url.protocol}`)
  if (url.username || url.password)
    throw new WebPageError(400, 'a URL with a user name or password is not fetched')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  if (!allowPrivate && (isIP(host) ? isBlocked(host) : /^localhost\.?$/i.test(host)))
    throw new WebPageError(
      400,
      `${url.host} is a private address: only public pages are fetched (URL_FETCH_ALLOW_PRIVATE)`,
    )
  url.hash = ''
  return url
}

/**
 * Fetches a web page for ingestion, within limits: http(s) only, public addresses only unless
 * allowed (checked for every redirect and at connect time), at most `maxRedirects` redirects,
 * `timeoutMs` for the whole, `maxBytes` of body (read as it comes, refused at that byte), and an
 * HTML content type. Returns the page and the URL it came from after redirects.
 */
export async function fetchWebPage(
  raw: string,
  limits: WebFetchLimits,
  /** Which addresses count as private (tests name their own). */
  isBlocked: (address: string) => boolean = isPrivateAddress,
): Promise<{ url: string; html: Uint8Array }> {
  const dispatcher = guardedAgent(limits.allowPrivate, isBlocked)
  const signal = AbortSignal.timeout(limits.timeoutMs)
  try {
    let url = checkedUrl(raw, limits.allowPrivate, isBlocked)
    for (let redirects = 0; ; redirects++) {
      const response = await fetch(url, {
        dispatcher,
        signal,
        redirect: 'manual',
        headers: {
          accept: 'text/html,application/xhtml+xml',
          'user-agent': 'rag-platform (document ingestion)',
        },
      }).catch((error: unknown) => {
        throw failure(error, url, limits)
      })
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel()
        if (redirects >= limits.maxRedirects)
          throw new WebPageError(502, `${raw} redirects more than ${limits.maxRedirects} times`)
        url = checkedUrl(new URL(location, url).href, limits.allowPrivate, isBlocked)
        continue
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw new WebPageError(502, `${url.href} answered ${response.status} ${response.statusText}`.trim())
      }
      const type = response.headers.get('content-type') ?? ''
      if (!HTML.test(type)) {
        await response.body?.cancel()
        throw new WebPageError(415, `${url.href} is not an HTML page (content type ${type || 'none'})`)
      }
      const declared = Number(response.headers.get('content-length') ?? 0)
      if (declared > limits.maxBytes) {
        await response.body?.cancel()
        throw new WebPageError(413, `${url.href} is ${declared} bytes; the limit is ${limits.maxBytes}`)
      }
      const parts: Uint8Array[] = []
      let size = 0
      for await (const part of response.body ?? []) {
        size += part.length
        if (size > limits.maxBytes)
          throw new WebPageError(413, `${url.href} is over ${limits.maxBytes} bytes (the limit)`)
        parts.push(part)
      }
      return { url: url.href, html: Buffer.concat(parts) }
    }
  } catch (error) {
    throw error instanceof WebPageError ? error : failure(error, new URL(raw), limits)
  } finally {
    await dispatcher.close()
  }
}

function failure(error: unknown, url: URL, limits: WebFetchLimits): WebPageError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const name = (error as { name?: string }).name
  if (name === 'TimeoutError' || name === 'AbortError')
    return new WebPageError(504, `${url.href} did not answer within ${limits.timeoutMs / 1000} s`)
  if (cause?.code === 'EPRIVATE')
    return new WebPageError(400, `${cause.message}: only public pages are fetched (URL_FETCH_ALLOW_PRIVATE)`)
  return new WebPageError(502, `${url.href} cannot be fetched: ${cause?.message ?? (error as Error).message}`)
}

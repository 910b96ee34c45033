import { type LookupAddress, lookup } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, type Dispatcher, fetch } from 'undici'
import { isPrivateAddress } from './private-address.ts'

export interface WebFetchLimits {
  maxBytes: number
  timeoutMs: number
  maxRedirects: number
  /** Loopback and private networks may be fetched (an intranet); off by default (SSRF). */
  allowPrivate: boolean
  /** The setting that allows private addresses, named when one is refused (default URL_FETCH_ALLOW_PRIVATE). */
  privateRule?: string
  /** Every address of a name (default: the system's resolver; a source's policy, tests, give their own). */
  resolve?: (host: string) => Promise<string[]>
}

/** The page cannot be taken; `status` is what the API answers (the message says why). */
export class WebPageError extends Error {
  constructor(
    readonly status: 400 | 413 | 415 | 422 | 502 | 504,
    message: string,
    /** The HTTP status the place answered, when it answered one (a crawler tells 404 from 503). */
    readonly answered?: number,
  ) {
    super(message)
    this.name = 'WebPageError'
  }
}

export interface GuardedRequest {
  /** What the request says it takes (`accept`), and the conditional GET's validators. */
  headers?: Record<string, string>
  /** Whether a content type is taken: anything else is refused (415) before its body is read. */
  takes: (contentType: string) => boolean
  /** Redirects must stay on this origin (a crawler's site): one elsewhere is refused (422). */
  origin?: string
  /** Stops the fetch with the caller's (a sync stopped). */
  signal?: AbortSignal
}

export type GuardedResponse =
  | { status: 200; url: string; contentType: string; body: Uint8Array; etag?: string; lastModified?: string }
  /** The validators matched: the copy the caller holds is current. */
  | { status: 304; url: string }

/**
 * Fetches within limits, for every fetch the platform makes on a user's say-so (a URL to ingest, a
 * site's pages): http(s) only, public addresses only unless allowed (checked before each request,
 * each redirect, and at connect time, so a name that resolves elsewhere later cannot pass — DNS
 * rebinding), at most `maxRedirects` redirects, `timeoutMs` per fetch, `maxBytes` of body (read as
 * it comes, refused at that byte). One connection pool for its fetches; `close()` ends it.
 */
export function guardedFetcher(
  limits: WebFetchLimits,
  /** Whether a connection for `host` may not reach `address` (a source's policy; tests name their own). */
  isBlocked: (address: string, host: string) => boolean = (address) => isPrivateAddress(address),
) {
  const dispatcher = guardedAgent(limits.allowPrivate, isBlocked, limits.resolve)
  const rule = limits.privateRule ?? 'URL_FETCH_ALLOW_PRIVATE'
  const checked = (raw: string) => checkedUrl(raw, limits.allowPrivate, isBlocked, rule)

  async function get(raw: string, request: GuardedRequest): Promise<GuardedResponse> {
    const timeout = AbortSignal.timeout(limits.timeoutMs)
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
    let url = checked(raw)
    try {
      for (let redirects = 0; ; redirects++) {
        const send = () =>
          fetch(url, {
            dispatcher,
            signal,
            redirect: 'manual',
            headers: { 'user-agent': USER_AGENT, ...request.headers },
          })
        // A kept-alive connection the server closed as the request went out (its idle timeout
        // and ours crossing) fails before any answer: a GET is sent again once, on a new one.
        const response = await send().catch((error: unknown) => {
          if (!closedUnderRequest(error) || signal.aborted) throw error
          return send()
        })
        const location = response.headers.get('location')
        if (response.status >= 300 && response.status < 400 && response.status !== 304 && location) {
          await response.body?.cancel()
          // The place answered (with redirects): the page's own failure, not the server's now.
          if (redirects >= limits.maxRedirects)
            throw new WebPageError(
              502,
              `${raw} redirects more than ${limits.maxRedirects} times`,
              response.status,
            )
          const next = new URL(location, url)
          if (request.origin !== undefined && next.origin !== request.origin)
            throw new WebPageError(422, `${url.href} redirects to another site (${next.origin})`)
          url = checked(next.href)
          continue
        }
        if (response.status === 304) {
          await response.body?.cancel()
          return { status: 304, url: url.href }
        }
        if (!response.ok) {
          await response.body?.cancel()
          throw new WebPageError(
            502,
            `${url.href} answered ${response.status} ${response.statusText}`.trim(),
            response.status,
          )
        }
        const contentType = response.headers.get('content-type') ?? ''
        if (!request.takes(contentType)) {
          await response.body?.cancel()
          throw new WebPageError(415, `${url.href} is not taken (content type ${contentType || 'none'})`)
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
        const etag = response.headers.get('etag')
        const lastModified = response.headers.get('last-modified')
        return {
          status: 200,
          url: url.href,
          contentType,
          body: Buffer.concat(parts),
          ...(etag ? { etag } : {}),
          ...(lastModified ? { lastModified } : {}),
        }
      }
    } catch (error) {
      throw error instanceof WebPageError ? error : failure(error, url, limits, rule)
    }
  }

  return { get, checked, close: () => dispatcher.close() }
}

export type GuardedFetcher = ReturnType<typeof guardedFetcher>

const USER_AGENT = 'rag-platform (document ingestion)'

/**
 * Connections that resolve a name to a private address are refused at connect time: the check
 * cannot be passed by a name that resolves differently later (DNS rebinding).
 */
function guardedAgent(
  allowPrivate: boolean,
  isBlocked: (address: string, host: string) => boolean,
  resolve?: (host: string) => Promise<string[]>,
): Dispatcher {
  const resolver = (
    hostname: string,
    options: object,
    callback: (error: Error | null, addresses: LookupAddress[]) => void,
  ) => {
    if (!resolve) return lookup(hostname, { ...options, all: true }, callback)
    resolve(hostname).then(
      (addresses) =>
        callback(
          null,
          addresses.map((address) => ({ address, family: isIP(address) })),
        ),
      (error: Error) => callback(error, []),
    )
  }
  return new Agent({
    connect: {
      lookup: (hostname, options, callback) =>
        resolver(hostname, options, (error, addresses) => {
          if (error) return callback(error, [])
          const blocked = allowPrivate ? undefined : addresses.find((a) => isBlocked(a.address, hostname))
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

function checkedUrl(
  raw: string,
  allowPrivate: boolean,
  isBlocked: (address: string, host: string) => boolean,
  rule: string,
): URL {
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
  if (
    !allowPrivate &&
    (isIP(host) ? isBlocked(host, host) : /^localhost\.?$/i.test(host) && isBlocked('127.0.0.1', host))
  )
    throw new WebPageError(400, `${url.host} is a private address: only public pages are fetched (${rule})`)
  url.hash = ''
  return url
}

/** Connection errors that mean the socket was closed under the request, before any answer. */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])
const closedUnderRequest = (error: unknown) =>
  CLOSED_UNDER_REQUEST.has((error as { cause?: { code?: string } }).cause?.code ?? '')

function failure(error: unknown, url: URL, limits: WebFetchLimits, rule: string): WebPageError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const name = (error as { name?: string }).name
  if (name === 'TimeoutError' || name === 'AbortError')
    return new WebPageError(504, `${url.href} did not answer within ${limits.timeoutMs / 1000} s`)
  if (cause?.code === 'EPRIVATE')
    return new WebPageError(400, `${cause.message}: only public pages are fetched (${rule})`)
  return new WebPageError(502, `${url.href} cannot be fetched: ${cause?.message ?? (error as Error).message}`)
}

import { createHash, timingSafeEqual } from 'node:crypto'
import {
  BOOTSTRAP_ADMIN,
  hashKey,
  KEY_SESSION_PREFIX,
  type KeySession,
  LOCAL_ADMIN,
  type Principal,
  SESSION_PREFIX,
} from '@rag/access'
import type { Context, MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'
import type { KeyAttempts } from './key-attempts.ts'
import { clearingKeyCookies, type KeyCookie, readKeyCookie, SESSION_BINDING_HEADER } from './key-cookie.ts'
import { STREAM_PATH, type StreamTickets } from './stream-tickets.ts'

declare module 'hono' {
  interface ContextVariableMap {
    principal: Principal
    /** The key or session token the request presented, read once by requireApiKey. */
    presentedKey: string | undefined
    /** Whose question a stream ticket opened (the ticket's asker), when one did. */
    ticketOwner: string
  }
}

/** Who the request acts as (set by requireApiKey); on an open path nobody, and that is an error. */
export function principalOf(c: Context): Principal {
  const principal = c.get('principal')
  if (!principal) throw new HttpError(401, `an API key is required: ${KEY_EXPECTED}`)
  return principal
}

/**
 * A presented key → its principal. API_KEY's first key is the bootstrap admin; its others are
 * editors of every collection (what they could do before roles: all but the dashboard and
 * re-indexing everything); any other key is looked up in the key table.
 */
export type KeyResolver = (key: string) => Promise<Principal | null>

export function keyResolver(
  keys: string[],
  lookup: (key: string) => Promise<Principal | null>,
  sessions?: KeySessions,
): KeyResolver {
  const [first = '', ...others] = keys
  const isAdmin = keyChecker(first ? [first] : [])
  const isOther = keyChecker(others)
  const editor = (fingerprint: string): Principal => ({
    id: fingerprint,
    name: 'API_KEY',
    role: 'editor',
    collections: null,
  })
  // A key session keeps the key's hash: API_KEY's keys are found by theirs, the table's by its index.
  const adminHash = first ? hashKey(first) : null
  const otherHashes = new Set(others.map(hashKey))
  const byHash = async (hash: string): Promise<Principal | null> => {
    if (hash === adminHash) return BOOTSTRAP_ADMIN
    if (otherHashes.has(hash)) return editor(`key:${hash.slice(0, 32)}`)
    return sessions ? sessions.principalOfKeyHash(hash) : null
  }
  return async (key) => {
    if (key.startsWith(KEY_SESSION_PREFIX) && sessions) {
      const session = await sessions.keySessionOf(key)
      const principal = session && (await byHash(session.keyHash))
      // The key now stands for someone else (removed from API_KEY and made again as a reader…):
      // the browser signed in as the one before is refused, never carried over.
      if (!session || !principal || principal.id !== session.principalId) return null
      return { ...principal, session: session.id, owner: `key:${session.keyHash.slice(0, 32)}` }
    }
    if (isAdmin(key)) return BOOTSTRAP_ADMIN
    if (isOther(key)) return editor(keyFingerprint(key))
    return lookup(key)
  }
}

/** Where a browser's key sessions are kept (Postgres: `@rag/access`). */
export interface KeySessions {
  keySessionOf: (token: string) => Promise<KeySession | null>
  principalOfKeyHash: (keyHash: string) => Promise<Principal | null>
}

/** What a 401 says is expected: one of the gateway's API keys (there is no OAuth login). */
const KEY_EXPECTED =
  'send an API key (API_KEY, or one made with `rag keys create`) as Authorization: Bearer <key> or X-API-Key: <key> (no OAuth login)'

const digest = (value: string) => createHash('sha256').update(value).digest()

/** Whether a key is one of the configured ones (SHA-256 digests compared in constant time). */
export function keyChecker(keys: string[]): (key: string) => boolean {
  const digests = keys.map(digest)
  return (key) => {
    const presented = digest(key)
    return digests.some((known) => timingSafeEqual(known, presented))
  }
}

/**
 * The key a request presents: `Authorization: Bearer <key>`, `X-API-Key: <key>`, or the one key
 * cookie a browser got from POST /session or single sign-on (`secure`: the `__Host-` one). Never
 * the address: a key in a link could sign a browser in as whoever made the link.
 */
export function presentedCredential(
  header: (name: string) => string | undefined,
  secure: boolean,
): KeyCookie {
  const bearer = header('authorization')
    ?.match(/^Bearer\s+(.+)$/i)?.[1]
    ?.trim()
  const key = bearer || header('x-api-key')?.trim()
  if (key) return { kind: 'one', key, via: 'header' }
  return readKeyCookie(header('cookie'), secure)
}

/** Whether a token is a browser sign-in session (a key's, or a person's through single sign-on). */
export const isSessionToken = (token: string) =>
  token.startsWith(KEY_SESSION_PREFIX) || token.startsWith(SESSION_PREFIX)

const COOKIE_HOLDS_A_KEY =
  'the rag_api_key cookie holds no sign-in session (a key is never kept in a cookie; one may have been set by another site on this host): it is cleared; sign in on the web app, or send the key as Authorization: Bearer <key>'
const SESSION_CHANGED =
  "this browser's sign-in cookie changed without a sign-in here (another site on this host may have set it): it is cleared; sign in again"

/** The key the request presented, as requireApiKey read it (undefined: none). */
export const presentedKey = (c: Context): string | undefined => c.get('presentedKey')

function tooManyAttempts(seconds: number): HttpError {
  return new HttpError(429, `too many wrong API keys from this address; try again in ${seconds} s`, {
    retryAfter: seconds,
  })
}

/**
 * With API keys configured, every request but the open paths must present a key: one of API_KEY(S)
 * (compared in constant time: the bootstrap admin) or one of the key table (its hash looked up,
 * unrevoked), and acts as its principal. Every wrong key, on any route, counts against the
 * client's address; past the limit the address is refused (429) whatever it presents. Without
 * API_KEY the gateway is loopback-only (see main.ts) and acts as the local admin, or as a table key
 * when one is presented. A key in the address (`?api_key=`) is refused: a link or a page elsewhere
 * could otherwise sign a browser in as whoever made it. Two key cookies, or one that does not
 * decode, are cleared and refused (400) — ignored on open paths, so health and the page still load.
 */
export function requireApiKey({
  keys,
  resolve,
  open,
  attempts,
  addressOf,
  isSecure = () => false,
  tickets,
}: {
  keys: string[]
  resolve: KeyResolver
  open: (path: string, method: string) => boolean
  attempts: KeyAttempts
  addressOf: (c: Context) => string
  /** Whether the client reached the gateway over TLS (the cookie is then `__Host-`). */
  isSecure?: (c: Context) => boolean
  /** Stream tickets: a browser's EventSource (no headers) opens one question's events with one. */
  tickets?: StreamTickets
}): MiddlewareHandler {
  return async function apiKeyMiddleware(c, next) {
    const ticket = c.req.query('ticket')
    const streamed = c.req.method === 'GET' ? STREAM_PATH.exec(c.req.path)?.[1] : undefined
    if (ticket !== undefined && streamed && tickets) {
      // A ticket opens its question's events and nothing else; it is not a key (no cookie, no other route).
      const grant = await tickets.redeem(ticket, streamed)
      if (!grant)
        throw new HttpError(
          401,
          'the stream ticket is unknown or expired: ask for another (POST /ask/{id}/stream-ticket)',
        )
      c.set('principal', grant.principal)
      c.set('ticketOwner', grant.owner)
      c.set('presentedKey', undefined)
      return next()
    }
    const isOpen = open(c.req.path, c.req.method)
    if (c.req.query('api_key') !== undefined && !isOpen)
      throw new HttpError(
        400,
        'a key in the address (?api_key=) is not accepted: send it as Authorization: Bearer <key> or X-API-Key: <key>, or sign in on the web app',
      )
    const presented = presentedCredential((name) => c.req.header(name), isSecure(c))
    if (presented.kind === 'refused') {
      for (const cookie of clearingKeyCookies(c.req.path, presented.clearOurs))
        c.header('Set-Cookie', cookie, { append: true })
      if (!isOpen) throw new HttpError(400, presented.problem)
    }
    let key = presented.kind === 'one' ? presented.key : undefined
    if (presented.kind === 'one' && presented.via === 'cookie' && !isSessionToken(presented.key)) {
      // A cookie holds a sign-in session, never a key (a key in a cookie is one a page elsewhere
      // on this host may have set): cleared, and refused where a key is needed.
      for (const cookie of clearingKeyCookies(c.req.path, true))
        c.header('Set-Cookie', cookie, { append: true })
      if (!isOpen) throw new HttpError(400, COOKIE_HOLDS_A_KEY)
      key = undefined
    }
    c.set('presentedKey', key)
    if (keys.length === 0) {
      // Loopback only: the local user, narrowed to a table key's grants when one is presented.
      const principal = key ? await resolve(key).catch(() => null) : null
      c.set('principal', principal ?? LOCAL_ADMIN)
      return next()
    }
    const address = addressOf(c)
    let principal: Principal | null = null
    if (key !== undefined) {
      const wait = attempts.blockedFor(address)
      if (wait > 0) {
        c.header('Retry-After', String(wait))
        throw tooManyAttempts(wait)
      }
      principal = await resolve(key)
      if (!principal) attempts.fail(address)
    }
    if (principal && presented.kind === 'one' && presented.via === 'cookie') {
      const bound = c.req.header(SESSION_BINDING_HEADER)
      if (bound !== undefined && bound !== principal.session) {
        // The page signed in as one session and its cookie now names another, with no sign-in
        // here between: set from another port of this host. Never obeyed; cleared.
        for (const cookie of clearingKeyCookies(c.req.path, true))
          c.header('Set-Cookie', cookie, { append: true })
        if (!isOpen) throw new HttpError(401, SESSION_CHANGED)
        c.set('presentedKey', undefined)
        return next()
      }
    }
    if (principal) c.set('principal', principal)
    if (isOpen) return next()
    if (!key) {
      // A hint for clients that would otherwise start an OAuth login (the MCP Inspector): a key, no login.
      c.header('WWW-Authenticate', `Bearer realm="rag", error_description="${KEY_EXPECTED}"`)
      throw new HttpError(401, `an API key is required: ${KEY_EXPECTED}`)
    }
    if (!principal) {
      c.header(
        'WWW-Authenticate',
        `Bearer realm="rag", error="invalid_token", error_description="${KEY_EXPECTED}"`,
      )
      throw new HttpError(401, 'invalid API key')
    }
    return next()
  }
}

/**
 * Whose a request is: a fingerprint of the API key it presented (what conversations belong to), the
 * person signed in, or `local` on a gateway without keys (loopback only: one user). Never the key itself.
 */
export function keyOwner(c: Context): string {
  // A person signed in owns their things across sign-ins (each sign-in is a new session token).
  const ticketOwner = c.get('ticketOwner')
  if (ticketOwner) return ticketOwner
  const principal = c.get('principal')
  if (principal?.id.startsWith('user:')) return principal.id
  if (principal?.owner) return principal.owner
  const key = presentedKey(c)
  return key ? keyFingerprint(key) : 'local'
}

/** A key as it may be stored or named (rows, Redis key names, logs): never the key itself. */
export const keyFingerprint = (key: string) =>
  `key:${createHash('sha256').update(key).digest('hex').slice(0, 32)}`

/**
 * The cookie a browser keeps its key or sign-in session in. Cookies are shared by every port of a
 * host (and, with Domain=, by sibling subdomains): a page elsewhere can set one with a narrower
 * Path that the browser sends first. So a request carries one key cookie or none — two are refused
 * and cleared, never "the first one wins" — and behind TLS the cookie is `__Host-`-prefixed, which
 * a browser takes only from this origin over TLS, with Path=/ and no Domain.
 */
export const KEY_COOKIE = 'rag_api_key'
export const SECURE_KEY_COOKIE = `__Host-${KEY_COOKIE}`

export type KeyCookie =
  | { kind: 'none' }
  | { kind: 'one'; key: string; via: 'header' | 'cookie' }
  /**
   * Two or more, or a value that does not decode: refused, and cleared where it can have been set
   * (`ours`: whether the one this gateway sets, at Path=/, is among those to clear).
   */
  | { kind: 'refused'; problem: string; clearOurs: boolean }

/** The cookie's name over TLS (`secure`) and over plain HTTP (loopback, a LAN without TLS). */
export const keyCookieName = (secure: boolean) => (secure ? SECURE_KEY_COOKIE : KEY_COOKIE)

/** Reads the key cookie of a Cookie header: the one of this scheme's name (the other is not ours to read). */
export function readKeyCookie(header: string | undefined, secure: boolean): KeyCookie {
  const name = keyCookieName(secure)
  const values = (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => part.slice(name.length + 1))
  const [only, ...others] = values
  if (only === undefined) return { kind: 'none' }
  if (others.length > 0)
    return {
      kind: 'refused',
      problem: `the request carries ${values.length} ${name} cookies (one may have been set by another site on this host); the others are cleared: send the request again`,
      // Ours is the one at Path=/ (another at Path=/ would have replaced it): the others go.
      clearOurs: false,
    }
  let key: string
  try {
    key = decodeURIComponent(only).trim()
  } catch {
    return {
      kind: 'refused',
      problem: `the ${name} cookie is not validly encoded; it is cleared: sign in again`,
      clearOurs: true,
    }
  }
  return key ? { kind: 'one', key, via: 'cookie' } : { kind: 'none' }
}

/**
 * The header the web app sends with every request: the id of the sign-in it made (GET /session
 * tells it). A cookie another port of this host replaced names another session, and is refused.
 */
export const SESSION_BINDING_HEADER = 'x-rag-session'

/** Set-Cookie for the session token: HttpOnly (no script reads it), SameSite=Strict, Secure and `__Host-` over TLS. */
export function keyCookieHeader(
  key: string,
  { secure, maxAgeSeconds }: { secure: boolean; maxAgeSeconds?: number },
) {
  return `${keyCookieName(secure)}=${encodeURIComponent(key)}; Path=/; HttpOnly; SameSite=Strict${
    secure ? '; Secure' : ''
  }${maxAgeSeconds === undefined ? '' : `; Max-Age=${maxAgeSeconds}`}`
}

/**
 * Set-Cookie headers that clear a key cookie wherever one sent with this request can have been set
 * from this host: at each folder of the request's path (a cookie set for `/ask` is cleared only by
 * one naming `/ask`), and at Path=/ — where this gateway sets its own — when `ours` goes too.
 */
export function clearingKeyCookies(path: string, ours: boolean): string[] {
  const segments = path.split('/').filter(Boolean).slice(0, 8)
  const paths = [
    ...(ours ? ['/'] : []),
    ...segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}`),
  ]
  return paths.flatMap((at) => [
    `${KEY_COOKIE}=; Path=${at}; HttpOnly; SameSite=Strict; Max-Age=0`,
    ...(at === '/' ? [`${SECURE_KEY_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0`] : []),
  ])
}

import { OpenAPIHono, z } from '@hono/zod-openapi'
import {
  createKeySession,
  credentialOf,
  endKeySession,
  endUserSession,
  KEY_SESSION_HOURS,
  KEY_SESSION_PREFIX,
  type Principal,
  SESSION_PREFIX,
} from '@rag/access'
import { type ApiSession, sessionSchema } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import type { Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { HttpError } from '../http-error.ts'
import {
  crossSiteErrors,
  errorResponse,
  jsonChangeErrors,
  keyAttemptErrors,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import { type KeyResolver, presentedKey } from './api-key.ts'
import type { KeyAttempts } from './key-attempts.ts'
import { keyCookieHeader } from './key-cookie.ts'
import type { Revocations } from './revocations.ts'
import { defineRoute } from './route-policy.ts'
import type { SingleSignOn } from './single-sign-on.ts'

const readRoute = defineRoute(
  {
    method: 'get',
    path: '/session',
    operationId: 'getSession',
    security: [],
    tags: ['session'],
    summary:
      'Whether a key is needed, whom this browser is signed in as, and the single sign-on offered (open)',
    responses: {
      ...keyAttemptErrors,
      200: { description: 'Session state', content: { 'application/json': { schema: sessionSchema } } },
    },
  },
  { role: 'open' },
)
const loginRoute = defineRoute(
  {
    method: 'post',
    path: '/session',
    operationId: 'signIn',
    security: [],
    tags: ['session'],
    summary:
      'Sign a browser in with an API key: an HttpOnly cookie keeps a session of that key (never the key), so a page can call the API',
    // A key is short: anything longer is refused before it is read.
    middleware: [
      bodyLimit({
        maxSize: 16 * 1024,
        onError: () => {
          throw new HttpError(413, 'the request body is over 16 KiB; it holds only {"apiKey": "…"}')
        },
      }),
    ] as const,
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              apiKey: z.string().min(1, 'must not be empty'),
              replace: z.boolean().optional().openapi({
                description:
                  'This browser is signed in as someone else: true signs that one out and this key in (recorded in the audit log); without it, 409',
              }),
            }),
          },
        },
      },
    },
    responses: {
      204: { description: 'Cookie set' },
      ...jsonChangeErrors,
      401: errorResponse('Not a valid key'),
      409: errorResponse('This browser is already signed in as someone else (send replace: true to switch)'),
      413: errorResponse('Body too large'),
      429: errorResponse('Too many wrong keys from this address'),
    },
  },
  { role: 'open', audit: 'sign-in' },
)
const logoutRoute = defineRoute(
  {
    method: 'delete',
    path: '/session',
    operationId: 'signOut',
    security: [],
    tags: ['session'],
    summary: 'Forget the cookie (a person signed in through single sign-on is signed out)',
    responses: { 204: { description: 'Cookie cleared' }, ...keyAttemptErrors, ...crossSiteErrors },
  },
  { role: 'open' },
)

/**
 * Browser sign-in: a page cannot hold a key where scripts of other pages cannot reach it, so it
 * hands its key over once and the gateway answers with a SameSite=Strict HttpOnly cookie holding
 * a random session token of that key (Postgres keeps its hash), which the key check reads.
 */
export function sessionRoutes(
  keys: string[],
  {
    attempts,
    addressOf,
    isSecure,
    resolve,
    pool,
    singleSignOn,
    revocations,
  }: {
    attempts: KeyAttempts
    addressOf: (c: Context) => string
    isSecure: (c: Context) => boolean
    resolve: KeyResolver
    pool: Pool
    singleSignOn?: SingleSignOn
    revocations?: Revocations
  },
) {
  const offered = async (): Promise<ApiSession['singleSignOn']> => {
    if (!singleSignOn) return null
    const status = await singleSignOn.oidc.status()
    return {
      provider: singleSignOn.oidc.providerName,
      url: '/auth/oidc/login',
      reachable: status.reachable,
      problem: status.reachable ? null : status.reason,
    }
  }
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(readRoute, async (c) => {
      // The key check ran before: a valid key presented made the request its principal's.
      const principal = c.get('principal')
      return c.json(
        {
          keyRequired: keys.length > 0,
          authenticated: keys.length === 0 || !!principal,
          principal: principal ? shown(principal) : null,
          session: principal?.session ?? null,
          singleSignOn: await offered(),
        },
        200,
      )
    })
    .openapi(loginRoute, async (c) => {
      const { apiKey, replace } = c.req.valid('json')
      // Who this browser already is (its cookie, read by the key check): never replaced silently.
      const before = c.get('principal')
      const signedIn = keys.length > 0 && before !== undefined && presentedKey(c) !== undefined
      if (keys.length > 0) {
        const address = addressOf(c)
        const wait = attempts.blockedFor(address)
        if (wait > 0) {
          c.header('Retry-After', String(wait))
          throw new HttpError(429, `too many wrong API keys from this address; try again in ${wait} s`)
        }
        const principal = await resolve(apiKey.trim())
        if (!principal) {
          attempts.fail(address)
          throw new HttpError(401, 'invalid API key')
        }
        if (signedIn && before.id !== principal.id) {
          if (!replace)
            throw new HttpError(
              409,
              `this browser is already signed in as ${before.name} (${before.role}); sign out first, or send replace: true to switch`,
            )
          c.set('auditDetail', { replaced: before.id })
        }
        // Who signed in, for the audit log (the route is open: nobody was before).
        c.set('principal', principal)
      }
      // The cookie holds a session of this key, never the key: signing out ends it for good, and
      // revoking the key ends it at the next request.
      const principal = keys.length > 0 ? c.get('principal') : await resolve(apiKey.trim())
      if (!principal) {
        // No keys (loopback): an unknown key is the local admin, as with no key at all.
        c.header('Set-Cookie', keyCookieHeader('', { secure: isSecure(c), maxAgeSeconds: 0 }))
        return c.body(null, 204)
      }
      const session = await createKeySession(pool, apiKey.trim(), principal.id)
      c.header(
        'Set-Cookie',
        keyCookieHeader(session.token, { secure: isSecure(c), maxAgeSeconds: KEY_SESSION_HOURS * 3600 }),
      )
      return c.body(null, 204)
    })
    .openapi(logoutRoute, async (c) => {
      const token = presentedKey(c)
      const principal = c.get('principal')
      if (token?.startsWith(SESSION_PREFIX) && principal) {
        // A person's session ends for good (its token is refused everywhere from now on).
        await endUserSession(pool, token)
        await revocations?.announce(credentialOf(principal))
      }
      // A key's browser session too (the key itself holds: it was never in the cookie).
      if (token?.startsWith(KEY_SESSION_PREFIX)) await endKeySession(pool, token)
      c.header('Set-Cookie', keyCookieHeader('', { secure: isSecure(c), maxAgeSeconds: 0 }))
      return c.body(null, 204)
    })
}

/** Who a request acts as, as the page shows it: never a key. */
const shown = (principal: Principal): NonNullable<ApiSession['principal']> => ({
  name: principal.name,
  role: principal.role,
  collections: principal.collections,
  kind: principal.id === 'local' ? 'local' : principal.id.startsWith('user:') ? 'person' : 'key',
})

import { randomBytes } from 'node:crypto'
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { createUserSession, recordAudit, saveSignInRequest, takeSignInRequest } from '@rag/access'
import type { SignInProblem } from '@rag/api-contract/enums'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import { type OidcSignIn, SignInError } from '@rag/sign-in'
import type { Context } from 'hono'
import { HttpError } from '../http-error.ts'
import { publicOrigin } from '../middleware/public-origin.ts'
import { errorResponse, keyAttemptErrors } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import { keyCookieHeader } from './key-cookie.ts'
import { defineRoute } from './route-policy.ts'

export interface SingleSignOn {
  oidc: OidcSignIn
  sessionHours: number
}

/** The sign-in under way, by id (its secrets stay in Postgres): sent back only to these paths. */
const SIGN_IN_COOKIE = 'rag_sign_in'
const CALLBACK_PATH = '/auth/oidc/callback'
const redirected = {
  description: 'To the provider, or back to the page (with `sign_in_error` when it failed)',
}

const loginRoute = defineRoute(
  {
    method: 'get',
    path: '/auth/oidc/login',
    operationId: 'startSingleSignOn',
    security: [],
    tags: ['session'],
    summary: 'Sign a person in through the OpenID Connect provider (a browser is sent there and back)',
    request: {
      query: z.object({
        return_to: z
          .string()
          .max(2000)
          .optional()
          .openapi({ description: 'A path of this site to land on once signed in', example: '/#/ask' }),
      }),
    },
    responses: {
      200: {
        description:
          'With Accept: application/json, the provider address to open (for a client that opens the browser itself)',
        content: { 'application/json': { schema: z.object({ url: z.string() }) } },
      },
      302: redirected,
      303: redirected,
      ...keyAttemptErrors,
      404: errorResponse('Single sign-on is not configured'),
    },
  },
  { role: 'open' },
)
const callbackRoute = defineRoute(
  {
    method: 'get',
    path: CALLBACK_PATH,
    operationId: 'finishSingleSignOn',
    security: [],
    tags: ['session'],
    summary: 'Where the provider sends the browser back: the code is exchanged and a session cookie set',
    responses: {
      200: {
        description: 'Signed in: a page that goes on to the page the sign-in started from',
        content: { 'text/html': { schema: z.string() } },
      },
      303: redirected,
      ...keyAttemptErrors,
      404: errorResponse('Single sign-on is not configured'),
    },
  },
  { role: 'open' },
)

/**
 * Signed in: a page of this site goes on to where the sign-in started. Not a redirect: the session
 * cookie is SameSite=Strict, and a browser does not send it on a redirect that began at the
 * provider's site, but does on a navigation this page starts.
 */
const continuePage = (path: string) => {
  const href = path.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Signed in</title><p>Signed in. <a href="${href}">Continue</a></p>`
}

/** Only a path of this site: `//host` or `/\host` would leave it. */
const samePath = (path: string | undefined) => (path && /^\/(?![/\\])/.test(path) ? path : '/')
const cookieOf = (c: Context, name: string) =>
  c.req
    .header('cookie')
    ?.split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name}=`))
    ?.slice(name.length + 1)

/**
 * Single sign-on with OpenID Connect (authorization code + PKCE). The provider's answer comes to
 * the callback in a top-level navigation from its site, so the cookie naming the sign-in under way
 * is SameSite=Lax (and good for ten minutes, on these paths only); the session itself is kept in
 * the same HttpOnly, SameSite=Strict cookie an API key typed into the page is.
 */
export function singleSignOnRoutes(deps: {
  pool: Pool
  logger: Logger
  singleSignOn?: SingleSignOn
  trustedProxies: string[]
  addressOf: (c: Context) => string
  isSecure: (c: Context) => boolean
}) {
  const configured = () => {
    if (!deps.singleSignOn)
      throw new HttpError(404, 'single sign-on is not configured here (OIDC_ISSUER); sign in with an API key')
    return deps.singleSignOn
  }
  const secure = (c: Context) => (deps.isSecure(c) ? '; Secure' : '')
  const signInCookie = (c: Context, value: string, maxAge: number) =>
    `${SIGN_IN_COOKIE}=${value}; Path=/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(c)}`
  const failed = (c: Context, problem: SignInProblem, error?: unknown) => {
    deps.logger.warn({ problem, err: error }, 'single sign-on failed')
    c.header('Set-Cookie', signInCookie(c, '', 0), { append: true })
    return c.redirect(`/?sign_in_error=${problem}`, 303)
  }

  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(loginRoute, async (c) => {
      const { oidc } = configured()
      const redirectUri = `${publicOrigin(c, deps.trustedProxies)}${CALLBACK_PATH}`
      try {
        const { url, pending } = await oidc.begin(redirectUri)
        const id = randomBytes(24).toString('base64url')
        await saveSignInRequest(deps.pool, id, {
          ...pending,
          returnTo: samePath(c.req.valid('query').return_to),
        })
        c.header('Set-Cookie', signInCookie(c, id, 600))
        if (c.req.header('accept')?.includes('application/json')) return c.json({ url }, 200)
        return c.redirect(url, 302)
      } catch (error) {
        if (error instanceof SignInError) return failed(c, error.problem, error)
        throw error
      }
    })
    .openapi(callbackRoute, async (c) => {
      const { oidc, sessionHours } = configured()
      const id = cookieOf(c, SIGN_IN_COOKIE)
      const pending = id ? await takeSignInRequest(deps.pool, id) : null
      if (!pending) return failed(c, 'no-request')
      const requested = new URL(c.req.url)
      const callbackUrl = new URL(
        `${publicOrigin(c, deps.trustedProxies)}${CALLBACK_PATH}${requested.search}`,
      )
      try {
        const person = await oidc.finish(callbackUrl, pending)
        const { token, id: sessionId } = await createUserSession(deps.pool, person, sessionHours)
        const signedIn = c.get('principal')
        const principal = {
          id: `user:${person.subject}`,
          name: person.name,
          role: person.role,
          collections: person.collections,
        }
        await recordAudit(deps.pool, principal, {
          action: 'sign-in',
          target: sessionId,
          address: deps.addressOf(c),
          detail: {
            method: 'oidc',
            groups: person.groups,
            collections: person.collections,
            // This browser was signed in as someone else: the sign-in it started replaces that one.
            ...(signedIn && signedIn.id !== principal.id ? { replaced: signedIn.id } : {}),
          },
        }).catch((error: unknown) => deps.logger.warn({ err: error }, 'audit log write failed'))
        c.header(
          'Set-Cookie',
          keyCookieHeader(token, { secure: deps.isSecure(c), maxAgeSeconds: sessionHours * 3600 }),
        )
        c.header('Set-Cookie', signInCookie(c, '', 0), { append: true })
        return c.html(continuePage(pending.returnTo), 200)
      } catch (error) {
        if (error instanceof SignInError) return failed(c, error.problem, error)
        throw error
      }
    })
}

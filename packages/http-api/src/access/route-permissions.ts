import { hasRole } from '@rag/access'
import type { Role } from '@rag/api-contract/enums'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'
import { DASHBOARD_PATH } from '../routes/queue-dashboard.ts'
import { principalOf } from './api-key.ts'

/**
 * The role each route needs, the one place it is written (paths as the OpenAPI document writes
 * them). A route missing here is refused to all but admins, and the route × role matrix test
 * fails for any operation of /openapi.json without a rule. `open` routes need no key. What a
 * reader or editor may reach is further limited to its collections inside each route (a document
 * of another collection is 404, as if it did not exist).
 */
export const ROUTE_ROLES: { method: string; path: string; role: Role | 'open' }[] = [
  { method: 'GET', path: '/healthz', role: 'open' },
  { method: 'GET', path: '/session', role: 'open' },
  { method: 'POST', path: '/session', role: 'open' },
  { method: 'DELETE', path: '/session', role: 'open' },
  { method: 'GET', path: '/auth/oidc/login', role: 'open' },
  { method: 'GET', path: '/auth/oidc/callback', role: 'open' },
  { method: 'GET', path: '/search', role: 'reader' },
  { method: 'POST', path: '/ask', role: 'reader' },
  { method: 'GET', path: '/ask/{id}', role: 'reader' },
  { method: 'DELETE', path: '/ask/{id}', role: 'reader' },
  { method: 'GET', path: '/ask/{id}/events', role: 'reader' },
  { method: 'GET', path: '/conversations', role: 'reader' },
  { method: 'POST', path: '/conversations', role: 'reader' },
  { method: 'GET', path: '/conversations/{id}', role: 'reader' },
  { method: 'PATCH', path: '/conversations/{id}', role: 'reader' },
  { method: 'DELETE', path: '/conversations/{id}', role: 'reader' },
  { method: 'POST', path: '/conversations/{id}/messages', role: 'reader' },
  { method: 'GET', path: '/documents', role: 'reader' },
  { method: 'GET', path: '/documents/{id}', role: 'reader' },
  { method: 'GET', path: '/documents/{id}/sections', role: 'reader' },
  { method: 'GET', path: '/documents/{id}/file', role: 'reader' },
  { method: 'GET', path: '/documents/{id}/pages/{page}', role: 'reader' },
  { method: 'GET', path: '/documents/{id}/pages/{page}/image', role: 'reader' },
  { method: 'POST', path: '/documents', role: 'editor' },
  { method: 'POST', path: '/documents/url', role: 'editor' },
  { method: 'DELETE', path: '/documents/{id}', role: 'editor' },
  { method: 'POST', path: '/documents/{id}/reindex', role: 'editor' },
  { method: 'POST', path: '/reindex', role: 'admin' },
  { method: 'GET', path: '/collections/{name}/synonyms', role: 'reader' },
  { method: 'PUT', path: '/collections/{name}/synonyms', role: 'editor' },
  { method: 'DELETE', path: '/collections/{name}/synonyms', role: 'editor' },
  { method: 'GET', path: '/collections/{name}/calibration', role: 'reader' },
  { method: 'POST', path: '/collections/{name}/calibration', role: 'editor' },
  { method: 'DELETE', path: '/collections/{name}/calibration', role: 'editor' },
  { method: 'GET', path: '/v1/models', role: 'reader' },
  { method: 'GET', path: '/v1/models/{model}', role: 'reader' },
  { method: 'POST', path: '/v1/chat/completions', role: 'reader' },
  { method: 'GET', path: '/keys', role: 'admin' },
  { method: 'POST', path: '/keys', role: 'admin' },
  { method: 'DELETE', path: '/keys/{id}', role: 'admin' },
  { method: 'GET', path: '/audit', role: 'admin' },
  { method: 'GET', path: '/sessions', role: 'admin' },
  { method: 'DELETE', path: '/sessions/{id}', role: 'admin' },
  // Outside the OpenAPI document: MCP (its tools call these routes with the caller's key), the
  // metrics and the queue dashboard.
  { method: '*', path: '/mcp', role: 'reader' },
  { method: 'GET', path: '/metrics', role: 'admin' },
  { method: '*', path: DASHBOARD_PATH, role: 'admin' },
  { method: '*', path: `${DASHBOARD_PATH}/*`, role: 'admin' },
]

const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .replace(/[.+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{[^}]+\}/g, '[^/]+')
      .replace(/\/\*$/, '/.*')}$`,
  )
const RULES = ROUTE_ROLES.map((rule) => ({ ...rule, pattern: patternOf(rule.path) }))

/** The role a request needs: its route's rule, or admin for a route without one. */
export function roleFor(method: string, path: string): Role | 'open' {
  const rule = RULES.find(
    (candidate) => (candidate.method === '*' || candidate.method === method) && candidate.pattern.test(path),
  )
  return rule?.role ?? 'admin'
}

/**
 * Refuses (403) a request whose principal's role is below its route's. Paths the key check lets
 * through without a key (open, the web app's files) pass.
 */
export function authorizeRoutes(open: (path: string, method: string) => boolean): MiddlewareHandler {
  return async function authorizeMiddleware(c, next) {
    if (open(c.req.path, c.req.method)) return next()
    const need = roleFor(c.req.method === 'HEAD' ? 'GET' : c.req.method, c.req.path)
    if (need === 'open') return next()
    const principal = principalOf(c)
    if (!hasRole(principal.role, need))
      throw new HttpError(
        403,
        `${c.req.method} ${c.req.path} needs the ${need} role; this key's role is ${principal.role}`,
      )
    return next()
  }
}

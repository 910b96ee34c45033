import { createRoute, type RouteConfig } from '@hono/zod-openapi'
import { type AuditAction, hasRole } from '@rag/access'
import type { Role } from '@rag/api-contract/enums'
import type { MiddlewareHandler } from 'hono'
import { HttpError } from '../http-error.ts'
import { principalOf } from './api-key.ts'

/** The limits a route may be counted against (each a rate per key or address, shared by replicas). */
export type RouteLimit = 'questions' | 'uploads'

/** Who may call a route, what it counts against, what the audit log records of it. */
export interface RouteAccess {
  /** The role it needs (a reader, editor or admin key or session), or `open`: no key needed. */
  role: Role | 'open'
  limit?: RouteLimit
  audit?: AuditAction
}

export interface RoutePolicy extends RouteAccess {
  method: string
  /** As the OpenAPI document writes it: /documents/{id}. */
  path: string
}

declare module 'hono' {
  interface ContextVariableMap {
    /** The rate limits of this gateway, by name (createApp sets them). */
    routeLimits: Record<RouteLimit, MiddlewareHandler>
    /** The audit action of the route this request reached, when it is audited. */
    auditAction: AuditAction
  }
}

const POLICIES: RoutePolicy[] = []

/** Every route defined so far with its access (the route × role matrix test reads them). */
export const routePolicies = (): readonly RoutePolicy[] => POLICIES

/** The role a route of the OpenAPI document needs; admin for one without a policy (none should be). */
export function roleFor(method: string, path: string): Role | 'open' {
  return POLICIES.find((policy) => policy.method === method && policy.path === path)?.role ?? 'admin'
}

/** Refuses (403) a principal whose role is below `role`. */
export function needsRole(
  role: Role,
  what: (c: Parameters<MiddlewareHandler>[0]) => string,
): MiddlewareHandler {
  return async function roleMiddleware(c, next) {
    const principal = principalOf(c)
    if (!hasRole(principal.role, role))
      throw new HttpError(403, `${what(c)} needs the ${role} role; this key's role is ${principal.role}`)
    return next()
  }
}

/**
 * A route, the one place its access is written: its OpenAPI spec with the role it needs, the
 * rate limit it counts against and the action the audit log records — run by the router on the
 * route it matched (a path no route has is a 404 for everyone, not a 403).
 */
export function defineRoute<const R extends RouteConfig>(route: R, access: RouteAccess) {
  const method = route.method.toUpperCase()
  POLICIES.push({ method, path: route.path, ...access })
  const middleware: MiddlewareHandler[] = []
  // Set before the role is checked: a reader refused an editor's action (403) is recorded as having
  // tried it, as a refusal (audit-trail.ts), as docs/security.md says.
  if (access.audit) {
    const action = access.audit
    middleware.push(async function auditActionMiddleware(c, next) {
      c.set('auditAction', action)
      return next()
    })
  }
  if (access.role !== 'open') middleware.push(needsRole(access.role, (c) => `${c.req.method} ${c.req.path}`))
  middleware.push(async function routeLimitMiddleware(c, next) {
    const limited = access.limit ? c.get('routeLimits')?.[access.limit] : undefined
    return limited ? limited(c, next) : next()
  })
  // The route's own middleware (a body limit) after: access is decided before a body is read.
  const own = route.middleware === undefined ? [] : [route.middleware].flat()
  return createRoute({ ...route, middleware: [...middleware, ...own] as MiddlewareHandler[] })
}

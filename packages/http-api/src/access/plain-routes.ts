import type { Role } from '@rag/api-contract/enums'
import { DASHBOARD_PATH } from '../routes/queue-dashboard.ts'
import type { RouteShape } from './route-matcher.ts'

/** What serves a plain path: each mount reads its own paths from the table below. */
export type PlainMount = 'api-docs' | 'web-app' | 'no-oauth' | 'mcp' | 'metrics' | 'dashboard'

export interface PlainRoute extends RouteShape {
  /** The role it needs, or `open`: no key needed. */
  role: Role | 'open'
  mount: PlainMount
}

const get = (mount: PlainMount, role: Role | 'open') => (path: string) =>
  ({ method: 'GET', path, role, mount }) as const

/**
 * Every path served outside the OpenAPI document, with who may reach it — the other half of the
 * gateway's one route table (the OpenAPI routes carry theirs in defineRoute). The key check lets
 * the open ones through and createApp puts the role check before the others; a path mounted and
 * not listed here fails the route table test (route-permissions.int.test.ts).
 */
export const PLAIN_ROUTES: readonly PlainRoute[] = [
  // The API's description: a client reads it before it has a key.
  ...['/openapi.json', '/docs', '/docs/assets/*'].map(get('api-docs', 'open')),
  // The web page shell holds no data; the API calls behind it do.
  ...['/', '/index.html', '/assets/*', '/favicon.svg', '/favicon.ico'].map(get('web-app', 'open')),
  // Where an OAuth client looks for a login after a 401 (routes/no-oauth.ts says why they are open).
  ...[
    '/.well-known/oauth-protected-resource',
    '/.well-known/oauth-protected-resource/*',
    '/.well-known/oauth-authorization-server',
    '/.well-known/oauth-authorization-server/*',
    '/.well-known/openid-configuration',
    '/.well-known/openid-configuration/*',
  ].map(get('no-oauth', 'open')),
  // Where such a client registers itself when it finds no metadata (the MCP SDK's fallback).
  { method: 'POST', path: '/register', role: 'open', mount: 'no-oauth' },
  // MCP's tools call the OpenAPI routes with the caller's key: each tool's own role applies too.
  { method: 'ALL', path: '/mcp', role: 'reader', mount: 'mcp' },
  { method: 'GET', path: '/metrics', role: 'admin', mount: 'metrics' },
  { method: 'ALL', path: DASHBOARD_PATH, role: 'admin', mount: 'dashboard' },
  { method: 'ALL', path: `${DASHBOARD_PATH}/*`, role: 'admin', mount: 'dashboard' },
]

/** The plain paths one mount serves. */
export const plainRoutesOf = (mount: PlainMount): readonly PlainRoute[] =>
  PLAIN_ROUTES.filter((route) => route.mount === mount)

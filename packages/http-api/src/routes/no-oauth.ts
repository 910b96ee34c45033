import type { OpenAPIHono } from '@hono/zod-openapi'
import { plainRoutesOf } from '../access/plain-routes.ts'

export const NO_OAUTH_MESSAGE =
  'this gateway has no OAuth login: send an API key as Authorization: Bearer <key> (or X-API-Key: <key>); on a gateway without API_KEY, none is needed from this machine'

/**
 * Where an OAuth client (the MCP SDK behind the MCP Inspector, Claude's connectors) looks for a
 * login to start after a 401: RFC 9728's protected-resource document and RFC 8414's / OpenID's
 * server metadata, at the root and under a resource path. This gateway has none (people sign in
 * with a key or the web app's single sign-on, whose provider is elsewhere), so each answers an
 * open 404 — "not supported", as those RFCs read it, and so does the registration a client falls back
 * to — rather than the key check's 401, which a
 * client takes as a login to discover. Its paths are in the gateway's table (access/plain-routes.ts).
 */
export function mountNoOAuth(app: OpenAPIHono) {
  for (const { method, path } of plainRoutesOf('no-oauth')) {
    // In OAuth's error shape (RFC 7591 §3.2.2), so the client shows the sentence, not a parse error.
    app.on(method, path, (c) =>
      c.json({ error: 'invalid_request', error_description: NO_OAUTH_MESSAGE }, 404),
    )
  }
}

import type { OpenAPIHono } from '@hono/zod-openapi'
import { credentialOf } from '@rag/access'
import { createGatewayClient } from '@rag/gateway-client'
import { createMcpHttpHandler } from '@rag/mcp-server'
import { bodyLimit } from 'hono/body-limit'
import { presentedKey } from '../access/api-key.ts'
import { REVOKED_MESSAGE, type Revocations } from '../access/revocations.ts'
import { HttpError } from '../http-error.ts'

/**
 * MCP over Streamable HTTP at /mcp, behind the API key like every data path. Its tools call this
 * same app in-process, with the caller's key, so access, rate limits and validation are the API's;
 * a key revoked during a call ends the call with an error saying so.
 */
export function mountMcp(app: OpenAPIHono, revocations?: Revocations) {
  app.use(
    '/mcp',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => {
        throw new HttpError(413, 'an MCP message is at most 1 MiB')
      },
    }),
  )
  const handleMcpRequest = createMcpHttpHandler()
  app.all('/mcp', (c) => {
    const client = createGatewayClient({
      baseUrl: new URL(c.req.url).origin,
      apiKey: presentedKey(c),
      fetch: (url, init) => Promise.resolve(app.fetch(new Request(url, init), c.env)),
    })
    const principal = c.get('principal')
    const revoked = revocations?.watch(c)
    // Calls are told apart per key (or sign-in); a revoked one's calls in flight end with an error.
    return handleMcpRequest(
      c.req.raw,
      client,
      principal ? credentialOf(principal) : 'local',
      revoked && { signal: revoked.signal, message: REVOKED_MESSAGE, done: revoked.stop },
    )
  })
}

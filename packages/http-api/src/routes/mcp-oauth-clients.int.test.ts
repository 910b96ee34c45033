import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// What the MCP Inspector and other OAuth-capable clients do: an auth provider that would open a
// browser for a login on any 401. This gateway has no OAuth login, so none may start.
function inspectorLikeProvider() {
  const redirects: URL[] = []
  const provider: OAuthClientProvider = {
    redirectUrl: 'http://127.0.0.1:6274/oauth/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1:6274/oauth/callback'], client_name: 'inspector' },
    clientInformation: () => undefined,
    saveClientInformation: () => {},
    tokens: () => undefined,
    saveTokens: () => {},
    redirectToAuthorization: (url) => {
      redirects.push(url)
    },
    saveCodeVerifier: () => {},
    codeVerifier: () => 'verifier',
  }
  return { provider, redirects }
}

const KEY = 'mcp-oauth-key-0123456789'
let keyed: GatewayServer
let keyless: GatewayServer

beforeAll(async () => {
  ;[keyed, keyless] = await Promise.all([
    startGatewayServer('mcp-oauth-keyed', {
      gateway: { access: { apiKeys: [KEY], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
    }),
    startGatewayServer('mcp-oauth-keyless', {
      gateway: { access: { apiKeys: [], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
    }),
  ])
})
afterAll(async () => {
  await keyed?.close()
  await keyless?.close()
})

describe('MCP clients that can log in with OAuth', () => {
  it('answer tools on a gateway without API_KEY, with no login', async () => {
    const { provider, redirects } = inspectorLikeProvider()
    const client = new Client({ name: 'inspector', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${keyless.baseUrl}/mcp`), { authProvider: provider }),
    )
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toContain('ask')
    expect(redirects).toEqual([])
    await client.close()
  })

  it('are told to send a key, and start no login, when the gateway needs one', async () => {
    const { provider, redirects } = inspectorLikeProvider()
    const client = new Client({ name: 'inspector', version: '1.0.0' })
    const connecting = client.connect(
      new StreamableHTTPClientTransport(new URL(`${keyed.baseUrl}/mcp`), { authProvider: provider }),
    )
    await expect(connecting).rejects.toThrow()
    expect(redirects).toEqual([])
    // Where it registers itself, having found no metadata: the sentence, in OAuth's error shape.
    const registering = await fetch(`${keyed.baseUrl}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(provider.clientMetadata),
    })
    expect(registering.status).toBe(404)
    expect(await registering.json()).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/no OAuth login: send an API key/),
    })
  })

  it('find no OAuth metadata to discover, whoever asks', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]) {
      const response = await fetch(`${keyed.baseUrl}${path}`)
      expect(response.status, path).toBe(404)
      expect(((await response.json()) as { error_description: string }).error_description).toMatch(
        /no OAuth login/,
      )
    }
  })
})

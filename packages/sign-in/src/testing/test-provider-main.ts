/**
 * A real OpenID Connect provider (oidc-provider, its development login form) for the tests, in
 * a process of its own so that its clock can be set apart from the gateway's and it can be
 * stopped like a provider that goes down. Prints `listening <port>`; controlled over HTTP:
 * POST /__test/client, /__test/groups, /__test/codes-expire.
 */
import { createServer, type IncomingMessage } from 'node:http'

// The provider's clock, moved before oidc-provider reads it (a provider whose clock is off):
// `--clock-offset=<seconds>`.
const offsetMs =
  Number(process.argv.find((arg) => arg.startsWith('--clock-offset='))?.split('=')[1] ?? 0) * 1000
if (offsetMs !== 0) {
  const realNow = Date.now.bind(Date)
  Date.now = () => realNow() + offsetMs
}
const { default: Provider } = await import('oidc-provider')
const { TestProviderAdapter } = await import('./test-provider-adapter.ts')

const groups = new Map<string, string[]>()
const bodyOf = async (request: IncomingMessage) => {
  let text = ''
  for await (const chunk of request) text += chunk
  return JSON.parse(text || '{}') as Record<string, unknown>
}

const server = createServer()
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as { port: number }
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: TestProviderAdapter,
  clients: [],
  // The login form accepts any login; its name is the account, whose groups the test sets.
  findAccount: async (_context, id) => ({
    accountId: id,
    claims: async () => ({
      sub: id,
      name: `Person ${id}`,
      email: `${id}@example.test`,
      groups: groups.get(id) ?? [],
    }),
  }),
  claims: { openid: ['sub'], profile: ['name'], email: ['email'], groups: ['groups'] },
  scopes: ['openid', 'profile', 'email', 'groups'],
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => true },
  ttl: {
    IdToken: 120,
    AuthorizationCode: 120,
    AccessToken: 600,
    Session: 3600,
    Interaction: 600,
    Grant: 3600,
  },
  cookies: { keys: ['test-provider-cookie-key'] },
})
provider.proxy = false
const handle = provider.callback()
server.on('request', async (request, response) => {
  const url = request.url ?? '/'
  if (!url.startsWith('/__test/')) return handle(request, response)
  const body = await bodyOf(request)
  if (url === '/__test/client') {
    TestProviderAdapter.registerClient({
      client_id: String(body.clientId),
      redirect_uris: body.redirectUris as string[],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })
  } else if (url === '/__test/groups') {
    groups.set(String(body.login), body.groups as string[])
  } else if (url === '/__test/codes-expire') {
    TestProviderAdapter.codesExpire(body.on === true)
  }
  response.writeHead(204).end()
})
process.stdout.write(`listening ${port}\n`)

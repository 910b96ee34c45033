import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer, type Server as TcpServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OutboundPolicy } from './network/outbound-policy.ts'
import { type SyncTestBed, startSyncTestBed } from './testing/sync-test-bed.ts'

// An editor of one collection points a source at the platform's own machine, spelt every way a URL
// can spell it, or at a host allowed to it that redirects there. A server on loopback counts every
// connection it gets: it must get none, from any kind, and each sync must fail saying which
// address it refused.
const LIMITS = { maxItems: 100, maxBytes: 1_000_000, requestTimeoutMs: 10_000, fetchTimeoutMs: 20_000 }
const SECRET_TOKEN = 'ghp_never-leaves-its-host-0123456789'

let bed: SyncTestBed
let counter: TcpServer
let redirector: Server
let port: number
let redirectPort: number
const connections: string[] = []

// A name of the editor's that resolves to loopback, as a DNS record of theirs would; one allowed
// to the platform (an admin listed it) on 127.0.0.2, which redirects to the counting server.
const policy: OutboundPolicy = {
  allowPrivate: ['allowed.example'],
  resolve: async (host) =>
    host === 'internal.example' ? ['127.0.0.1'] : host === 'allowed.example' ? ['127.0.0.2'] : [],
}

beforeAll(async () => {
  counter = createServer((socket) => {
    let first = ''
    socket.once('data', (data) => {
      first = data.toString('latin1')
      connections.push(first)
    })
    socket.on('close', () => {
      if (!first) connections.push('(a connection that sent nothing)')
    })
    socket.end()
  })
  // Every loopback address and the unspecified one reach it (listening on all, IPv4 and IPv6).
  await new Promise<void>((resolve) => counter.listen(0, '::', resolve))
  port = (counter.address() as { port: number }).port
  redirector = createHttpServer((request, response) => {
    response.writeHead(302, { location: `http://127.0.0.1:${port}${request.url ?? '/'}` }).end()
  })
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.2', resolve))
  redirectPort = (redirector.address() as { port: number }).port
  bed = await startSyncTestBed('sources-network', LIMITS, policy)
})

afterAll(async () => {
  await bed?.close()
  await new Promise((resolve) => counter?.close(resolve))
  await new Promise((resolve) => redirector?.close(resolve))
})

/** Every spelling of this machine a URL allows, and the allowed host that redirects here. */
const places = () => ({
  'a name resolving to loopback': `http://internal.example:${port}/x/`,
  'the unspecified IPv6 address': `http://[::]:${port}/x/`,
  'IPv4 mapped in IPv6': `http://[::ffff:127.0.0.1]:${port}/x/`,
  'the unspecified IPv4 address': `http://0.0.0.0:${port}/x/`,
  'loopback in decimal': `http://2130706433:${port}/x/`,
  'loopback in octal': `http://0177.0.0.1:${port}/x/`,
  'an allowed host redirecting to loopback': `http://allowed.example:${redirectPort}/x/`,
})

const settingsFor = (kind: 'web' | 'webdav' | 's3' | 'git', url: string): Record<string, unknown> =>
  kind === 's3' ? { bucket: 'internal', endpoint: url.replace(/\/x\/$/, '') } : { url }

describe.each(['web', 'webdav', 's3', 'git'] as const)('a %s source aimed at this machine', (kind) => {
  it.each(Object.entries(places()).map(([what]) => what))(
    'is refused for %s, without a connection',
    async (what) => {
      const url = (places() as Record<string, string>)[what] as string
      const before = connections.length
      const name = `${kind}-${what.replace(/\W+/g, '-')}`.slice(0, 60)
      const source = await bed.addSource(kind, name, settingsFor(kind, url))
      const credentials: Record<string, string> =
        kind === 'git' ? { token: SECRET_TOKEN } : kind === 's3' ? {} : { username: 'u', password: 'p' }
      const sync = await bed.sync(source, credentials)
      expect(sync.status).toBe('failed')
      expect(sync.error).toMatch(
        /127\.0\.0\.1|::|0\.0\.0\.0|private address|not the source's server|redirect/,
      )
      expect(connections.slice(before)).toEqual([])
    },
  )
})

describe('a Git source', () => {
  it('refuses a URL that WHATWG and curl read differently (example.com\\@127.0.0.1)', async () => {
    const source = await bed.addSource('git', 'git-backslash', {
      url: `http://example.com\\@127.0.0.1:${port}/repo.git`,
    })
    const sync = await bed.sync(source, { token: SECRET_TOKEN })
    expect(sync.status).toBe('failed')
    expect(sync.error).toMatch(/backslash/)
    expect(connections).toEqual([])
  })

  it('over ssh, is refused for a name resolving to loopback before ssh runs', async () => {
    const source = await bed.addSource('git', 'git-ssh-internal', {
      url: `ssh://git@internal.example:${port}/repo.git`,
    })
    const sync = await bed.sync(source)
    expect(sync.status).toBe('failed')
    expect(sync.error).toMatch(/internal\.example resolves to 127\.0\.0\.1, a private address/)
    expect(connections).toEqual([])
  })

  it('sends its token to no host but its own: a redirect elsewhere is not followed', async () => {
    const source = await bed.addSource('git', 'git-token-redirect', {
      url: `http://allowed.example:${redirectPort}/repo.git`,
    })
    const sync = await bed.sync(source, { token: SECRET_TOKEN })
    expect(sync.status).toBe('failed')
    expect(sync.error).not.toContain(SECRET_TOKEN)
    expect(connections.join('\n')).not.toContain('Authorization')
    expect(connections).toEqual([])
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createUserSession } from '@rag/access'
import { type IngestionFixture, ingestFiles, startIngestionFixture } from '@rag/ingest/testing'
import { createRevocationChannel, type RevocationChannel } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, serverSentEvents, type TestGateway } from '../testing.ts'

// Revocation holds from the next request on, and also for what is already open: an event stream,
// a streamed chat completion, an MCP call — on another replica than the one that revoked. No
// question worker runs, so a question stays queued and its stream stays open until something ends it.
const ADMIN = 'revocation-admin-key-0123456789'
let fixture: IngestionFixture
let scratch: string
/** Two replicas of the gateway on one database and one Redis. */
let replicaA: TestGateway
let replicaB: TestGateway
const channels: RevocationChannel[] = []
let serverA: ReturnType<typeof serve>
let baseA: string

const call = (
  gateway: TestGateway,
  key: string,
  path: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<Response> => {
  const { json, ...rest } = init
  return gateway.app.request(path, {
    ...rest,
    headers: {
      authorization: `Bearer ${key}`,
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  }) as Promise<Response>
}
const readerKey = async () => {
  const made = await call(replicaB, ADMIN, '/keys', {
    method: 'POST',
    json: { name: 'to-be-revoked', role: 'reader', collections: ['handbook'] },
  })
  expect(made.status).toBe(201)
  return (await made.json()) as { id: string; key: string }
}
const revoke = async (id: string) => {
  const response = await call(replicaB, ADMIN, `/keys/${id}`, { method: 'DELETE' })
  expect(response.status).toBe(200)
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rag-revocation-'))
  fixture = await startIngestionFixture('revocation')
  await ingestFiles(fixture, scratch, [
    {
      filename: 'handbook.txt',
      data: new TextEncoder().encode('The cafeteria opens at nine.'),
      collection: 'handbook',
    },
  ])
  replicaA = await replica()
  replicaB = await replica()
  serverA = serve({ fetch: replicaA.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => serverA.once('listening', resolve))
  baseA = `http://127.0.0.1:${(serverA.address() as AddressInfo).port}`
})

/** A replica of the gateway on the test's database and Redis, told of revocations through Redis. */
const replica = async () => {
  const channel = await createRevocationChannel(fixture.redisUrl, fixture.prefix)
  channels.push(channel)
  return createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: scratch, maxBytes: 1e6, maxFiles: 2 },
    {
      access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
      revocationChannel: channel,
    },
  )
}

afterAll(async () => {
  await new Promise((resolve) => serverA?.close(resolve))
  await replicaA?.close()
  await replicaB?.close()
  for (const channel of channels) await channel.close()
  await fixture?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

describe('revoking a key', () => {
  it("ends the key's open question stream on another replica with a `revoked` event", async () => {
    const { id, key } = await readerKey()
    const asked = await call(replicaA, key, '/ask', {
      method: 'POST',
      json: { question: 'When does it open?' },
    })
    const question = ((await asked.json()) as { id: string }).id
    const stream = await call(replicaA, key, `/ask/${question}/events`)
    const events = serverSentEvents(stream.body)
    expect((await events.next()).value?.event).toBe('status')
    await revoke(id)
    const rest: string[] = []
    for await (const event of events) rest.push(event.event)
    expect(rest).toEqual(['revoked'])
    expect((await call(replicaA, key, `/ask/${question}`)).status).toBe(401)
  })

  it('ends a streamed chat completion with an error naming the revocation', async () => {
    const { id, key } = await readerKey()
    const response = await call(replicaA, key, '/v1/chat/completions', {
      method: 'POST',
      json: { model: 'handbook', stream: true, messages: [{ role: 'user', content: 'When does it open?' }] },
    })
    const chunks = serverSentEvents(response.body)
    expect((await chunks.next()).value?.data).toHaveProperty('object', 'chat.completion.chunk')
    await revoke(id)
    const rest: Record<string, unknown>[] = []
    for await (const chunk of chunks) rest.push(chunk.data)
    expect(rest).toEqual([
      { error: expect.objectContaining({ code: 'key_revoked', message: expect.stringMatching(/revoked/) }) },
    ])
  })

  /** Calls `ask` over MCP on `base` with a new key, revokes the key mid-call, and gives how the call ended. */
  const mcpCallRevokedMidway = async (base: string) => {
    const { id, key } = await readerKey()
    const client = new Client({ name: 'agent', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    )
    const questionCount = async () =>
      Number((await fixture.db.pool.query('SELECT count(*) AS n FROM questions')).rows[0]?.n)
    const before = await questionCount()
    const outcome = client
      .callTool({ name: 'ask', arguments: { question: 'When does it open?' } }, undefined, {
        timeout: 120_000,
      })
      .then(
        // An error either way: the call's own (the revocation notice reached the replica first) or
        // the tool's (its next poll of the question did).
        (result) => (result.isError ? JSON.stringify(result.content) : 'answered'),
        (error: Error) => error.message,
      )
    // The call is in flight once its question exists.
    await expect.poll(questionCount).toBe(before + 1)
    await revoke(id)
    const ended = await outcome
    await client.close()
    return ended
  }

  it("ends the key's MCP call in flight with an error saying so", async () => {
    expect(await mcpCallRevokedMidway(baseA)).toMatch(/revoked/)
  })

  it('says so too on a replica the revocation notice never reaches: its poll of the question finds the key gone', async () => {
    // No revocation channel: only the database says the key no longer holds.
    const deaf = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 2 },
      { access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
    )
    const server = serve({ fetch: deaf.app.fetch, hostname: '127.0.0.1', port: 0 })
    await new Promise((resolve) => server.once('listening', resolve))
    const ended = await mcpCallRevokedMidway(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    expect(ended).toMatch(/revoked/)
    await new Promise((resolve) => server.close(resolve))
    await deaf.close()
  })

  it('under concurrent use: every answer is the data or a refusal, and every request sent after the revocation is refused', async () => {
    // Replicas of their own: past ten refusals their address is held off (429), as for any wrong key.
    const [one, two] = [await replica(), await replica()]
    const { id, key } = await readerKey()
    const use = (i: number) =>
      call(i % 2 ? one : two, key, i % 3 ? '/documents' : '/search?q=cafeteria').then(
        (response) => response.status,
      )
    // Sixty requests in flight on two replicas while the key is revoked...
    const during = await Promise.all([
      ...Array.from({ length: 60 }, (_, i) => use(i)),
      revoke(id).then(() => 0),
    ])
    // ... and twenty after it.
    const after = await Promise.all(Array.from({ length: 20 }, (_, i) => use(i)))
    const refused = (status: number) => status === 401 || status === 429
    expect(during.filter((status) => status !== 0 && status !== 200 && !refused(status))).toEqual([])
    expect(after.filter((status) => !refused(status))).toEqual([])
    await Promise.all([one.close(), two.close()])
  })
})

describe('ending a sign-in session', () => {
  it("ends the person's open stream when an admin signs them out", async () => {
    const [here, there] = [await replica(), await replica()]
    const { token, id } = await createUserSession(
      fixture.db.pool,
      { subject: 'idp.example|zoe', name: 'Zoe', role: 'reader', collections: ['handbook'], groups: ['hr'] },
      1,
    )
    const cookie = { headers: { cookie: `rag_api_key=${token}` } }
    const asked = await here.app.request('/ask', {
      method: 'POST',
      headers: { ...cookie.headers, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({ question: 'When does it open?' }),
    })
    expect(asked.status).toBe(202)
    const question = ((await asked.json()) as { id: string }).id
    const events = serverSentEvents((await here.app.request(`/ask/${question}/events`, cookie)).body)
    expect((await events.next()).value?.event).toBe('status')
    expect((await call(there, ADMIN, `/sessions/${id}`, { method: 'DELETE' })).status).toBe(204)
    const rest: string[] = []
    for await (const event of events) rest.push(event.event)
    expect(rest).toEqual(['revoked'])
    expect((await here.app.request('/documents', cookie)).status).toBe(401)
    await Promise.all([here.close(), there.close()])
  })
})

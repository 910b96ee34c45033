import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { waitForDocument } from '@rag/ingest/testing'
import { createConfig, lintFromString } from '@redocly/openapi-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// The spec against what the server does: Redocly's recommended rules, and every status a battery
// of good and bad requests gets back from each operation declared for that operation.
const KEY = 'conformance-key-0123456789'
const sampleCsv = fileURLToPath(new URL('../../../../data/sample/faq.csv', import.meta.url))

interface Operation {
  operationId?: string
  parameters?: { name: string; in: string }[]
  requestBody?: { content: Record<string, unknown> }
  responses: Record<string, { content?: Record<string, unknown> }>
}
type Spec = { paths: Record<string, Record<string, Operation>>; servers?: { url: string }[] }

let server: GatewayServer
let spec: Spec
const request = (path: string, init?: RequestInit) => fetch(`${server.baseUrl}${path}`, init)

beforeAll(async () => {
  server = await startGatewayServer('gateway-conformance', {
    gateway: {
      access: {
        apiKeys: [KEY],
        corsOrigins: [],
        askPerMinute: 8,
        uploadsPerMinute: 8,
        trustedProxies: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
      },
    },
  })
  spec = (await (await request('/openapi.json')).json()) as Spec
})
afterAll(async () => {
  await server?.close()
})

const authorised = { authorization: `Bearer ${KEY}` }

describe('the OpenAPI description', () => {
  it("passes Redocly's recommended rules, with an operationId on every operation and a server", async () => {
    const problems = await lintFromString({
      source: JSON.stringify(spec),
      // The project has not chosen a licence, so the spec cannot name one.
      config: await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } }),
    })
    expect(problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([])
    const operations = Object.values(spec.paths).flatMap((methods) => Object.values(methods))
    expect(operations.every((operation) => operation.operationId)).toBe(true)
    expect(spec.servers?.[0]?.url).toBe(server.baseUrl)
  })

  it("declares every status the server answers each operation with, and each success's media type", async () => {
    const seen = new Map<string, Set<string>>()
    const mediaTypes = new Map<string, Set<string>>()
    // Addresses of the battery's own (through the trusted proxy), so its wrong keys and floods lock
    // out neither its own good requests nor another test.
    const [GOOD, WRONG_KEYS, FLOOD] = ['203.0.113.9', '203.0.113.10', '203.0.113.11']
    const send = async (
      method: string,
      template: string,
      path: string,
      init: RequestInit = {},
      from = GOOD,
    ) => {
      const headers = { ...(init.headers as Record<string, string>), 'x-forwarded-for': from }
      const response = await request(path, { method, ...init, headers })
      const text = await response.text()
      const key = `${method.toUpperCase()} ${template}`
      seen.set(key, (seen.get(key) ?? new Set()).add(String(response.status)))
      const type = response.headers.get('content-type')?.split(';')[0]
      if (response.ok && type) {
        const answered = `${key} ${response.status}`
        mediaTypes.set(answered, (mediaTypes.get(answered) ?? new Set()).add(type))
      }
      return { status: response.status, json: () => JSON.parse(text) as unknown }
    }
    // Real ids for the happy paths.
    const form = new FormData()
    form.append('file', new Blob([await readFile(sampleCsv)]), 'faq.csv')
    const uploaded = (
      await send('post', '/documents', '/documents', { body: form, headers: authorised })
    ).json() as { documents: { id: string }[] }
    const documentId = uploaded.documents[0]?.id ?? ''
    await waitForDocument(server.fixture.db.pool, documentId)
    const asked = await request('/ask', {
      method: 'POST',
      headers: { ...authorised, 'content-type': 'application/json' },
      body: JSON.stringify({ question: '返品できますか', options: { mode: 'keyword' } }),
    })
    const questionId = ((await asked.json()) as { id: string }).id
    // As long as a loaded machine needs (vi.waitFor's own default is a second).
    await vi.waitFor(
      async () => {
        const answer = await request(`/ask/${questionId}`, { headers: authorised })
        expect(((await answer.json()) as { status: string }).status).toBe('done')
      },
      { timeout: 60_000, interval: 100 },
    )

    const created = await request('/conversations', {
      method: 'POST',
      headers: { ...authorised, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'battery' }),
    })
    const conversationId = ((await created.json()) as { id: string }).id
    const madeKey = await request('/keys', {
      method: 'POST',
      headers: { ...authorised, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'conformance', role: 'reader' }),
    })
    const keyId = ((await madeKey.json()) as { id: string }).id
    const realIds: Record<string, string> = {
      '/documents/{id}': documentId,
      '/ask/{id}': questionId,
      '/conversations/{id}': conversationId,
      '/keys/{id}': keyId,
      // No one signed in through single sign-on here: an open session id is unknown.
      '/sessions/{id}': '00000000-0000-4000-8000-000000000001',
      // No feedback given and no case made here: unknown ids.
      '/feedback/{id}': '00000000-0000-4000-8000-000000000002',
      '/collections/{name}/cases/{id}': '00000000-0000-4000-8000-000000000003',
    }
    const fill = (template: string, id: string) => template.replace('{id}', id)
    const idFor = (template: string) =>
      Object.entries(realIds).find(([prefix]) => template.startsWith(prefix))?.[1] ?? ''
    const unknownId = '00000000-0000-4000-8000-000000000000'
    const foreign = { origin: 'http://elsewhere.example', 'sec-fetch-site': 'cross-site' }
    // Reads first, deletions last: each read then meets the real thing, not what a DELETE left.
    const order = (method: string) => (method === 'get' ? 0 : method === 'delete' ? 2 : 1)
    const operations = Object.entries(spec.paths)
      .flatMap(([template, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ template, method, operation })),
      )
      .sort((a, b) => order(a.method) - order(b.method))
    for (const { template, method, operation } of operations) {
      const real = fill(template, idFor(template))
      const bodyTypes = Object.keys(operation.requestBody?.content ?? {})
      const good: RequestInit = bodyTypes.includes('application/json')
        ? {
            headers: { ...authorised, 'content-type': 'application/json' },
            body: JSON.stringify(
              template === '/session'
                ? { apiKey: KEY }
                : { question: '保証は？', options: { mode: 'keyword' } },
            ),
          }
        : { headers: authorised }
      // Without a key, with a wrong one, with a good one on real and unknown and malformed ids.
      await send(method, template, real, {})
      await send(method, template, real, { headers: { authorization: 'Bearer wrong' } }, WRONG_KEYS)
      await send(method, template, real, good)
      if (template.includes('{id}')) {
        await send(method, template, fill(template, unknownId), good)
        await send(method, template, fill(template, 'not-an-id'), good)
      }
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'query')
          await send(method, template, `${real}?${parameter.name}=%FF%FE-nonsense-${'x'.repeat(300)}`, good)
      if (method !== 'get')
        await send(method, template, real, { ...good, headers: { ...good.headers, ...foreign } })
      if (bodyTypes.length > 0) {
        const headers = { ...authorised }
        await send(method, template, real, {
          headers: { ...headers, 'content-type': 'text/plain' },
          body: 'hi',
        })
        await send(method, template, real, {
          headers: { ...headers, 'content-type': 'application/json' },
          body: '{',
        })
        await send(method, template, real, {
          headers: { ...headers, 'content-type': bodyTypes[0] ?? 'application/json' },
          body: 'x'.repeat(3_000_000),
        })
      }
    }
    // Past the rate limits, and wrong keys until the address is held off (429 on any route then).
    for (let i = 0; i < 10; i++)
      await send(
        'post',
        '/ask',
        '/ask',
        {
          headers: { ...authorised, 'content-type': 'application/json' },
          body: JSON.stringify({ question: 'q' }),
        },
        FLOOD,
      )
    for (let i = 0; i < 10; i++) {
      const again = new FormData()
      again.append('file', new Blob([`a,b\n${i},x\n`]), `t${i}.csv`)
      await send('post', '/documents', '/documents', { body: again, headers: authorised }, FLOOD)
    }
    for (let i = 0; i < 12; i++)
      await send(
        'get',
        '/documents',
        '/documents',
        { headers: { authorization: 'Bearer wrong' } },
        WRONG_KEYS,
      )
    for (const [template, methods] of Object.entries(spec.paths))
      for (const method of Object.keys(methods))
        await send(method, template, fill(template, idFor(template)), { headers: authorised }, WRONG_KEYS)

    const undeclared = [...seen].flatMap(([key, statuses]) => {
      const [method, template] = key.split(' ') as [string, string]
      const declared = Object.keys(spec.paths[template]?.[method.toLowerCase()]?.responses ?? {})
      return [...statuses]
        .filter((status) => !declared.includes(status))
        .map((status) => `${key} → ${status}`)
    })
    expect(undeclared).toEqual([])
    const undeclaredTypes = [...mediaTypes].flatMap(([answered, types]) => {
      const [method, template, status] = answered.split(' ') as [string, string, string]
      const content = spec.paths[template]?.[method.toLowerCase()]?.responses?.[status]?.content ?? {}
      return [...types].filter((type) => !(type in content)).map((type) => `${answered} ${type}`)
    })
    expect(undeclaredTypes).toEqual([])
    // The battery did reach the refusals it is about.
    expect([...(seen.get('POST /ask') ?? [])].sort()).toEqual(
      expect.arrayContaining(['202', '400', '401', '403', '413', '415', '429']),
    )
  })

  it('answers a method a path does not take with 405 and the methods it does take', async () => {
    const put = await request('/ask', { method: 'PUT', headers: authorised })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('POST')
    expect(((await put.json()) as { error: { message: string } }).error.message).toMatch(/PUT.*\/ask.*POST/)
    const patch = await request(`/documents/00000000-0000-4000-8000-000000000000`, {
      method: 'PATCH',
      headers: authorised,
    })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('DELETE, GET, HEAD')
    expect((await request('/no-such-path', { headers: authorised })).status).toBe(404)
  })
})

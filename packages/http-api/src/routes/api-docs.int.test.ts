import { describe, expect, onTestFinished } from 'vitest'
import { gatewayTestWith } from '../testing/gateway-fixtures.ts'
import { createTestGateway } from '../testing.ts'

const KEYED = { access: { apiKeys: ['secret'], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } }
const it = gatewayTestWith('gateway-openapi', { overrides: KEYED })

interface Spec {
  openapi: string
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { name: string; in: string }[]; requestBody?: unknown; security?: unknown[] }
    >
  >
  security: unknown[]
  components: { schemas: Record<string, unknown> }
}

describe('the API description', () => {
  it('is served without a key at /openapi.json, with every route and its parameters', async ({ server }) => {
    const response = await server.app.request('/openapi.json')
    expect(response.status).toBe(200)
    const spec = (await response.json()) as Spec
    expect(spec.openapi).toBe('3.1.0')
    const routes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /healthz',
        'POST /documents',
        'GET /documents',
        'GET /documents/{id}',
        'GET /documents/{id}/sections',
        'DELETE /documents/{id}',
        'POST /documents/{id}/reindex',
        'POST /reindex',
        'GET /search',
        'POST /ask',
        'GET /ask/{id}',
        'GET /ask/{id}/events',
        'POST /session',
      ]),
    )
    const searchParameters = spec.paths['/search']?.get?.parameters?.map((p) => `${p.in}:${p.name}`)
    expect(searchParameters).toEqual(
      expect.arrayContaining(['query:q', 'query:mode', 'query:k', 'query:collection']),
    )
    expect(spec.paths['/ask']?.post?.requestBody).toBeDefined()
    // The key is declared for the API, and lifted where the gateway does not ask for one.
    expect(spec.security).toEqual([{ apiKey: [] }])
    expect(spec.paths['/healthz']?.get?.security).toEqual([])
    expect(Object.keys(spec.components.schemas)).toEqual(
      expect.arrayContaining(['Document', 'SearchHit', 'Question', 'QuestionSource', 'Error']),
    )
  })

  it('is rendered at /docs by Swagger UI served from this gateway (no CDN)', async ({ server }) => {
    const page = await server.app.request('/docs')
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toMatch(/\/openapi\.json/)
    expect(html).not.toMatch(/https?:\/\//)
    const script = await server.app.request('/docs/assets/swagger-ui-bundle.js')
    expect(script.status).toBe(200)
    expect((await script.text()).length).toBeGreaterThan(100_000)
  })

  it('keeps the data behind the key while the description is open', async ({ server }) => {
    expect((await server.app.request('/documents')).status).toBe(401)
    expect((await server.app.request('/search?q=x')).status).toBe(401)
  })
})

describe('browser sign-in', () => {
  it('keeps a session of a valid key in an HttpOnly cookie that then opens the API, and refuses a wrong one', async ({
    server,
  }) => {
    const before = await server.app.request('/session')
    expect(await before.json()).toEqual({
      keyRequired: true,
      authenticated: false,
      principal: null,
      session: null,
      singleSignOn: null,
    })
    const wrong = await server.app.request('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'nope' }),
    })
    expect(wrong.status).toBe(401)
    const empty = await server.app.request('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: '' }),
    })
    expect(empty.status).toBe(400)
    expect(await empty.text()).toMatch(/apiKey: must not be empty/)
    const signIn = await server.app.request('/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'secret' }),
    })
    expect(signIn.status).toBe(204)
    const cookie = signIn.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const jar = cookie.split(';')[0] ?? ''
    expect((await server.app.request('/documents', { headers: { cookie: jar } })).status).toBe(200)
    expect(await (await server.app.request('/session', { headers: { cookie: jar } })).json()).toEqual({
      keyRequired: true,
      authenticated: true,
      principal: { name: 'API_KEY', role: 'admin', collections: null, kind: 'key' },
      session: expect.stringMatching(/^[0-9a-f-]{36}$/),
      singleSignOn: null,
    })
    const signOut = await server.app.request('/session', { method: 'DELETE' })
    expect(signOut.headers.get('set-cookie')).toMatch(/Max-Age=0/)
  })
  it('limits sign-in attempts, so keys cannot be guessed at speed', async ({ server }) => {
    // A gateway of its own: the wrong keys it sends must not lock out the other tests' requests,
    // whichever order they run in.
    const guessed = await createTestGateway(
      { ...server.fixture, pool: server.fixture.db.pool },
      { uploadDir: server.uploadDir, maxBytes: 1, maxFiles: 1 },
      KEYED,
    )
    onTestFinished(() => guessed.close())
    const statuses: number[] = []
    for (let attempt = 0; attempt < 12; attempt++) {
      const response = await guessed.app.request('/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: `guess-${attempt}` }),
      })
      statuses.push(response.status)
    }
    expect(statuses).toContain(429)
    expect(statuses.slice(0, statuses.indexOf(429)).every((status) => status === 401)).toBe(true)
  })
})

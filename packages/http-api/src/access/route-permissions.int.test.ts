import { hasRole } from '@rag/access'
import { ROLES, type Role } from '@rag/api-contract/enums'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'
import { PLAIN_ROUTES } from './plain-routes.ts'
import { routeMatcher } from './route-matcher.ts'
import { roleFor, routePolicies } from './route-policy.ts'

// The route × role matrix, generated from the OpenAPI document: every operation must be made by
// defineRoute (a route made otherwise has no role check and fails here), and every role must be
// let through or refused (403) exactly as its definition says.
const ADMIN = 'bootstrap-admin-key-0123456789'
const NIL = '00000000-0000-4000-8000-000000000000'

let fixture: IngestionFixture
let gateway: TestGateway
const keyOf: Partial<Record<Role, string>> = { admin: ADMIN }

beforeAll(async () => {
  fixture = await startIngestionFixture('route-permissions')
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
    { access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  )
  await gateway.app.request('/collections', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'somewhere' }),
  })
  for (const role of ['reader', 'editor'] as const) {
    const made = await gateway.app.request('/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: role, role, collections: ['somewhere'] }),
    })
    keyOf[role] = ((await made.json()) as { key: string }).key
  }
})

afterAll(async () => {
  await gateway?.close()
  await fixture?.close()
})

async function operations(): Promise<{ method: string; path: string }[]> {
  const spec = (await (await gateway.app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>
  }
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  )
}

describe('route permissions', () => {
  it('has a rule for every operation of the OpenAPI document', async () => {
    const ruled = new Set(routePolicies().map((rule) => `${rule.method} ${rule.path}`))
    const missing = (await operations()).filter((op) => !ruled.has(`${op.method} ${op.path}`))
    expect(missing, 'operations not made by defineRoute (no role, limit or audit)').toEqual([])
  })

  it('lets each role through exactly the operations its rule allows (403 for the rest)', async () => {
    const wrong: string[] = []
    for (const { method, path } of await operations()) {
      const need = roleFor(method, path)
      const concrete = path.replace('{model}', 'all').replace(/\{[^}]+\}/g, NIL)
      for (const role of ROLES) {
        const response = await gateway.app.request(concrete, {
          method,
          headers: { authorization: `Bearer ${keyOf[role]}`, 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
        })
        await response.body?.cancel()
        const allowed = need === 'open' || hasRole(role, need)
        if (allowed === (response.status === 403))
          wrong.push(`${role} ${method} ${path}: ${response.status} (needs ${need})`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('serves no path that is neither an OpenAPI route nor in the table of plain ones', async () => {
    const listed = routeMatcher([...routePolicies(), ...PLAIN_ROUTES])
    // Middleware (app.use, method ALL) serves nothing itself; each handler's path must be listed.
    const unlisted = gateway.app.routes
      .filter((route) => route.method !== 'ALL' && !listed(route.method, route.path))
      .map((route) => `${route.method} ${route.path}`)
    expect(unlisted, 'served but in no table: add it to access/plain-routes.ts').toEqual([])
  })

  it('checks each plain path for the role its table gives it', async () => {
    const wrong: string[] = []
    for (const { method, path, role } of PLAIN_ROUTES) {
      if (role === 'open') continue
      const concrete = path.replace('/*', '/anything')
      for (const who of ROLES) {
        const response = await gateway.app.request(concrete, {
          method: method === 'ALL' ? 'GET' : method,
          headers: { authorization: `Bearer ${keyOf[who]}` },
        })
        await response.body?.cancel()
        if (hasRole(who, role) === (response.status === 403))
          wrong.push(`${who} ${method} ${path}: ${response.status} (needs ${role})`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('refuses the routes outside the document to all but admins: metrics and the queue dashboard', async () => {
    for (const path of ['/metrics', '/admin/queues']) {
      expect(
        (await gateway.app.request(path, { headers: { authorization: `Bearer ${keyOf.editor}` } })).status,
      ).toBe(403)
      expect(
        (await gateway.app.request(path, { headers: { authorization: `Bearer ${ADMIN}` } })).status,
      ).toBe(200)
    }
  })

  it('answers a path no route has with 404 for every role, not a refusal that hints it exists', async () => {
    for (const role of ROLES)
      for (const [method, path] of [
        ['POST', '/v1/embeddings'],
        ['GET', '/favicon.ico'],
      ] as const) {
        const response = await gateway.app.request(path, {
          method,
          headers: { authorization: `Bearer ${keyOf[role]}` },
        })
        await response.body?.cancel()
        expect(response.status, `${role} ${method} ${path}`).toBe(404)
      }
  })
})

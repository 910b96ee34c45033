import { describe, expect } from 'vitest'
import { gatewayTestWith } from './testing/gateway-fixtures.ts'

// Every route of the route table, sent NUL and its kin where a client can put them: a path
// parameter, a query value, each property of its JSON body. Each answers 400 naming the field,
// never a 500 (Postgres refuses NUL in text: before the edge guard, 21 routes answered 500).
const ADMIN = 'control-characters-admin-key-0123'
const test = gatewayTestWith('control-chars', {
  overrides: { access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
})

interface Operation {
  method: string
  path: string
  query: string[]
  body: string[]
}

type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[]; oneOf?: Schema[] }
type Spec = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[]
        requestBody?: { content?: Record<string, { schema?: Schema }> }
      }
    >
  >
  components?: { schemas?: Record<string, Schema> }
}

/** The properties a body schema names (through $ref, allOf and oneOf). */
function propertiesOf(spec: Spec, schema: Schema | undefined): string[] {
  if (!schema) return []
  if (schema.$ref) return propertiesOf(spec, spec.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''])
  return [
    ...Object.keys(schema.properties ?? {}),
    ...[...(schema.allOf ?? []), ...(schema.oneOf ?? [])].flatMap((part) => propertiesOf(spec, part)),
  ]
}

async function operations(request: (path: string) => Response | Promise<Response>): Promise<Operation[]> {
  const spec = (await (await request('/openapi.json')).json()) as Spec
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      body: [...new Set(propertiesOf(spec, operation.requestBody?.content?.['application/json']?.schema))],
    })),
  )
}

const NIL = '00000000-0000-4000-8000-000000000000'
const concrete = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value)

describe('control characters sent to every route', () => {
  test('answer 400 naming the field, in the path, the query and the JSON body', async ({ server }) => {
    const send = (method: string, path: string, body?: unknown) =>
      server.app.request(path, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const ops = await operations((path) => send('GET', path))
    expect(ops.length).toBeGreaterThan(40)
    const wrong: string[] = []
    const expectRefused = async (what: string, response: Response, field: string) => {
      const answer = (await response.json().catch(() => ({}))) as {
        error?: { message?: string; field?: string }
      }
      if (response.status !== 400 || answer.error?.field !== field)
        wrong.push(`${what}: ${response.status} ${JSON.stringify(answer).slice(0, 160)}`)
    }
    const hasBody = (method: string) => !['GET', 'DELETE', 'HEAD'].includes(method)
    for (const op of ops) {
      const label = `${op.method} ${op.path}`
      if (op.path.includes('{'))
        await expectRefused(
          `${label} path`,
          await send(op.method, concrete(op.path, 'a%00b'), hasBody(op.method) ? {} : undefined),
          'path',
        )
      for (const name of [...op.query, 'q'])
        await expectRefused(
          `${label} ?${name}`,
          await send(
            op.method,
            `${concrete(op.path, NIL)}?${name}=a%00b`,
            hasBody(op.method) ? {} : undefined,
          ),
          `query.${name}`,
        )
      for (const name of op.body)
        for (const value of ['a\u0000b', ['a\u0001'], { x: 'a\u001b' }])
          await expectRefused(
            `${label} body.${name}`,
            await send(op.method, concrete(op.path, NIL), { [name]: value }),
            `body.${name}${typeof value === 'string' ? '' : Array.isArray(value) ? '.0' : '.x'}`,
          )
    }
    expect(wrong).toEqual([])
  })

  test('take tabs and newlines in text, and refuse a date of the year 0000', async ({ server }) => {
    const send = (path: string) => server.app.request(path, { headers: { authorization: `Bearer ${ADMIN}` } })
    expect((await send('/audit?since=0000-01-01T00:00:00Z')).status).toBe(400)
    expect((await send('/audit?since=2026-01-01T00:00:00Z')).status).toBe(200)
    await server.app.request('/collections', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'handbook' }),
    })
    const rules = await server.app.request('/collections/handbook/synonyms', {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rules: '有休, 年次有給休暇\r\n# 注\tコメント\n' }),
    })
    expect(rules.status).toBeLessThan(300)
  })
})

import { ingestFiles } from '@rag/ingest/testing'
import { describe, expect, it } from 'vitest'
import { collectionsGatewayOfFile } from '../testing/collections-gateway.ts'

// A collection is named once: a misspelt name is an error wherever a request takes one, with the
// same answer for a reader as for another team's collection, and nothing can be made for it.
const world = collectionsGatewayOfFile(
  'collections',
  [
    { filename: 'alpha.txt', text: 'The alpha cafeteria opens at nine.', collection: 'alpha' },
    { filename: 'bravo.txt', text: 'The bravo cafeteria opens at seven.', collection: 'bravo' },
  ],
  [
    ['alpha-reader', 'reader', ['alpha']],
    ['alpha-editor', 'editor', ['alpha']],
  ],
)
const { call, keys, adminKey: ADMIN } = world

const messageOf = (body: Record<string, unknown>) => (body.error as { message: string }).message

/** Every request that names a collection, for that name. */
const namingRequests = (name: string): [method: string, path: string, body?: unknown][] => [
  ['POST', '/ask', { question: 'When does the cafeteria open?', options: { collection: name } }],
  ['GET', `/search?q=cafeteria&collection=${encodeURIComponent(name)}`],
  ['GET', `/documents?collection=${encodeURIComponent(name)}`],
  ['POST', '/conversations', { collection: name }],
  ['GET', `/collections/${encodeURIComponent(name)}/synonyms`],
  ['GET', `/collections/${encodeURIComponent(name)}/cases`],
  ['GET', `/collections/${encodeURIComponent(name)}/calibration`],
  ['GET', `/evaluations?collection=${encodeURIComponent(name)}`],
]

describe('collections', () => {
  it('are listed with their documents, a reader seeing only its own', async () => {
    const all = await call(ADMIN, 'GET', '/collections')
    expect(all.status).toBe(200)
    const names = (all.body.collections as { name: string; documents: number }[]).map(
      ({ name, documents }) => `${name}:${documents}`,
    )
    expect(names).toEqual(expect.arrayContaining(['alpha:1', 'bravo:1']))
    const own = await call(keys['alpha-reader'] as string, 'GET', '/collections')
    expect((own.body.collections as { name: string }[]).map(({ name }) => name)).toEqual(['alpha'])
  })

  it('answer 404 naming a misspelt collection on every route that takes one', async () => {
    for (const [method, path, body] of namingRequests('alhpa')) {
      const answered = await call(ADMIN, method, path, body)
      expect(answered.status, `${method} ${path}`).toBe(404)
      expect(messageOf(answered.body), `${method} ${path}`).toContain('"alhpa"')
    }
    // The right name goes through.
    expect((await call(ADMIN, 'GET', '/search?q=cafeteria&collection=alpha')).status).toBe(200)
  })

  it("answer a reader the same for another team's collection as for none, so existence is not revealed", async () => {
    const reader = keys['alpha-reader'] as string
    for (const [index, [method, path, body]] of namingRequests('bravo').entries()) {
      const other = await call(reader, method, path, body)
      const [, nowherePath, nowhereBody] = namingRequests('nowhere')[index] ?? []
      const missing = await call(reader, method, nowherePath as string, nowhereBody)
      expect(other.status, `${method} ${path}`).toBe(missing.status)
      expect(messageOf(other.body).replace('bravo', 'X'), path).toBe(
        messageOf(missing.body).replace('nowhere', 'X'),
      )
    }
  })

  it('cannot be given keys, sources or synonyms before they exist; an admin begins one', async () => {
    const key = await call(ADMIN, 'POST', '/keys', { name: 'legal', role: 'reader', collections: ['legal'] })
    expect(key.status).toBe(400)
    expect(messageOf(key.body)).toMatch(/collections: no collection "legal".*POST \/collections/)
    const source = await call(keys['alpha-editor'] as string, 'POST', '/sources', {
      name: 'site',
      kind: 'web',
      collection: 'alhpa',
      settings: { url: 'https://example.com/' },
    })
    expect(source.status).toBe(403) // not its collection: it may not add there, whatever exists
    const adminSource = await call(ADMIN, 'POST', '/sources', {
      name: 'site',
      kind: 'web',
      collection: 'legal',
      settings: { url: 'https://example.com/' },
    })
    expect(adminSource.status).toBe(404)
    expect(messageOf(adminSource.body)).toContain('"legal"')
    const synonyms = await call(ADMIN, 'PUT', '/collections/legal/synonyms', { rules: 'a, b\n' })
    expect(synonyms.status).toBe(404)

    expect(
      (await call(keys['alpha-editor'] as string, 'POST', '/collections', { name: 'legal' })).status,
    ).toBe(403)
    expect((await call(ADMIN, 'POST', '/collections', { name: '*' })).status).toBe(400)
    const created = await call(ADMIN, 'POST', '/collections', { name: 'legal' })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'legal', documents: 0 })
    expect((await call(ADMIN, 'POST', '/collections', { name: 'legal' })).status).toBe(409)
    expect(
      (await call(ADMIN, 'POST', '/keys', { name: 'legal', role: 'reader', collections: ['legal'] })).status,
    ).toBe(201)
    expect((await call(ADMIN, 'PUT', '/collections/legal/synonyms', { rules: 'a, b\n' })).status).toBe(200)
    // Asking an empty collection is an ordinary refusal, not an error: it exists.
    expect((await call(ADMIN, 'GET', '/search?q=cafeteria&collection=legal')).status).toBe(200)
  })

  it('begin with their first document, however it is stored', async () => {
    await ingestFiles(world.gateway.fixture, world.gateway.uploadDir, [
      {
        filename: 'charlie.txt',
        data: new TextEncoder().encode('Charlie opens at ten.'),
        collection: 'charlie',
      },
    ])
    const listed = await call(ADMIN, 'GET', '/collections')
    expect(listed.body.collections).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'charlie', documents: 1 })]),
    )
    expect((await call(ADMIN, 'GET', '/documents?collection=charlie')).status).toBe(200)
  })
})

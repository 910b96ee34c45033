import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerDocument } from '@rag/ingest'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'

let fixture: IngestionFixture
let uploadDir: string
let app: TestGateway['app']
let testGateway: TestGateway

interface Found {
  mode: string
  degraded: string[]
  hits: { rank: number; sourceId: string; title: string; text: string; parentText: string; score: number }[]
}
interface Failure {
  error: { message: string }
}

beforeAll(async () => {
  fixture = await startIngestionFixture('gateway-search')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-search-'))
  const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
  for (const name of ['lumina-guide.pdf', 'faq.csv']) {
    const data = await readFile(new URL(`../../../../data/sample/${name}`, import.meta.url))
    const { document } = await registerDocument(deps, { uploadDir, maxBytes: 1e6 }, { filename: name, data })
    await waitForDocument(fixture.db.pool, document.id)
  }
  testGateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir, maxBytes: 1e6, maxFiles: 5 },
  )
  app = testGateway.app
})

afterAll(async () => {
  await testGateway.close()
  await fixture.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const get = async <T>(path: string) => {
  const response = await app.request(path)
  return { status: response.status, body: (await response.json()) as T }
}

describe('GET /search', () => {
  it('returns ranked passages with their source ids, parent text and scores', async () => {
    const { status, body } = await get<Found>(
      `/search?q=${encodeURIComponent('保証期間は何年ですか')}&mode=keyword&k=2`,
    )
    expect(status).toBe(200)
    expect(body.hits.map((h) => [h.rank, h.sourceId, h.title])).toEqual([
      [1, 'lumina-guide.pdf:p5', 'lumina-guide.pdf'],
      ...body.hits.slice(1).map((h, i) => [i + 2, h.sourceId, h.title]),
    ])
    expect(body.hits.length).toBeLessThanOrEqual(2)
    expect(body.hits[0]?.parentText).toContain('保証期間はお買い上げ日から2年間です')
  })

  it('answers hybrid without a model from keyword search, saying so', async () => {
    const { body } = await get<Found>(`/search?q=${encodeURIComponent('アームの角度')}`)
    expect(body.mode).toBe('hybrid')
    expect(body.degraded).toEqual(['vector'])
    expect(body.hits[0]?.sourceId).toBe('faq.csv:r2')
  })

  it('refuses bad queries with a 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['/search', /parameter q/],
      ['/search?q=%20%20', /q: must not be empty/],
      [`/search?q=${'a'.repeat(2001)}`, /q: must be at most 2000/],
      ['/search?q=x&mode=magic', /parameter mode/],
      ['/search?q=x&k=0', /parameter k/],
      ['/search?q=x&color=red', /color/],
    ]
    for (const [path, message] of cases) {
      const { status, body } = await get<Failure>(path)
      expect([path, status]).toEqual([path, 400])
      expect(body.error.message).toMatch(message)
    }
  })

  it('treats SQL-looking text as words', async () => {
    const { status, body } = await get<Found>(
      `/search?q=${encodeURIComponent("保証'; DROP TABLE chunks; --")}&mode=keyword`,
    )
    expect(status).toBe(200)
    expect(body.hits[0]?.sourceId).toBe('lumina-guide.pdf:p5')
  })
})

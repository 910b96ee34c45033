import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { keywordStatsMismatches } from '@rag/db/testing'
import { registerDocument } from '@rag/ingest'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keywordSearch } from './keyword-search.ts'
import { search } from './search.ts'

const sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  fixture = await startIngestionFixture('retrieval')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-retrieval-'))
  const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
  for (const name of await readdir(sampleDir)) {
    const { document } = await registerDocument(
      deps,
      { uploadDir, maxBytes: 1e6 },
      {
        filename: name,
        data: await readFile(join(sampleDir, name)),
        collection: 'samples',
      },
    )
    expect((await waitForDocument(fixture.db.pool, document.id)).status).toBe('ready')
  }
})

afterAll(async () => {
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

// Questions a user of the sample lamp would ask, and the page, row or section that answers each.
const QUESTIONS: [string, string][] = [
  ['満充電までの時間はどれくらいですか？', 'lumina-guide.pdf:p4'],
  ['保証期間は何年ですか', 'lumina-guide.pdf:p5'],
  ['湿気の多い浴室で使えますか', 'lumina-guide.pdf:p2'],
  ['アームの角度は調整できますか', 'faq.csv:r2'],
  ['LEDの寿命は？', 'faq.csv:r4'],
  ['What is the return policy?', 'faq.csv:r5'],
  ['定休日はいつですか', 'store-info.html#定休日'],
  ['駐車場はありますか', 'store-info.html#アクセス'],
  ['エラーコード E-34 の意味', 'setup.md#ペアリングできないとき'],
  ['flickering at the lowest brightness', 'release-notes.docx#bug-fixes'],
]

const ask = (query: string, mode: 'keyword' | 'hybrid' | 'vector') =>
  search(
    { pool: fixture.db.pool, embedder: null },
    { query, mode, limit: 3, searchK: 10, alpha: 0.5, rrfK: 60, collection: 'samples' },
  )

describe('search over the sample documents', () => {
  it.each(QUESTIONS)('keyword search puts the answer first: %s → %s', async (query, source) => {
    const { hits, degraded } = await ask(query, 'keyword')
    expect(hits[0]?.sourceId).toBe(source)
    expect(degraded).toEqual([])
  })

  it("cites a text file's lines: the Markdown section that answers, from its heading to its last line", async () => {
    const { hits } = await ask('エラーコード E-34 の意味', 'keyword')
    expect(hits[0]).toMatchObject({
      sourceId: 'setup.md#ペアリングできないとき',
      heading: 'ペアリング › ペアリングできないとき',
      lines: { from: 18, to: 25 },
    })
    // A PDF page has no lines: its place is its regions.
    expect((await ask('保証期間は何年ですか', 'keyword')).hits[0]?.lines).toBeNull()
  })

  it('falls back to keyword search without an embedding model, and says so', async () => {
    const { hits, degraded } = await ask('保証期間は何年ですか', 'hybrid')
    expect(hits[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    expect(degraded).toEqual(['vector'])
  })

  it('returns the parent section of each hit, one hit per parent, with document and score', async () => {
    const { hits } = await ask('ペアリング Bluetooth スマートフォン', 'keyword')
    expect(new Set(hits.map((h) => h.parentId)).size).toBe(hits.length)
    for (const hit of hits) {
      expect(hit.parentText).toContain(hit.text)
      expect(hit.score).toBeGreaterThan(0)
      expect(hit.documentId).toMatch(/^[0-9a-f-]{36}$/)
    }
    expect(hits.map((h) => h.rank)).toEqual(hits.map((_, i) => i + 1))
  })

  it('finds nothing for words the documents do not contain, and handles odd input', async () => {
    expect((await ask('量子コンピュータの原理', 'keyword')).hits).toEqual([])
    expect((await ask('   ', 'keyword')).hits).toEqual([])
    expect((await ask("'; DROP TABLE chunks; --", 'keyword')).hits).toEqual([])
    expect((await ask('保証', 'keyword')).hits.length).toBeGreaterThan(0)
  })

  it('keeps BM25 statistics (words and character pairs) exact through inserts, replacements and deletes', async () => {
    const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
    const first = await registerDocument(
      deps,
      { uploadDir, maxBytes: 1e6 },
      { filename: 'x.txt', data: new TextEncoder().encode('alpha beta 保証期間\n\ngamma') },
    )
    await waitForDocument(fixture.db.pool, first.document.id)
    await registerDocument(
      deps,
      { uploadDir, maxBytes: 1e6 },
      { filename: 'x.txt', data: new TextEncoder().encode('alpha delta') },
    )
    await waitForDocument(fixture.db.pool, first.document.id)
    await fixture.db.pool.query('DELETE FROM documents WHERE filename = $1', ['faq.csv'])
    expect(await keywordStatsMismatches(fixture.db.pool)).toEqual({ terms: 0, collections: 0 })
    expect((await keywordSearch(fixture.db.pool, 'gamma', { limit: 5 })).length).toBe(0)
    expect((await keywordSearch(fixture.db.pool, 'delta', { limit: 5 })).length).toBe(1)
  })
})

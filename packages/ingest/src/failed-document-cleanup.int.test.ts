import { randomUUID } from 'node:crypto'
import { chunkSections } from '@rag/chunking'
import { withTransaction } from '@rag/db'
import { createTestDatabase, keywordStatsMismatches, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { preparePartRows, storePart } from './repository/chunks.ts'
import { insertDocument, markFailed } from './repository/documents.ts'
import { advancePart, PART_ORDINAL_SPAN, saveParsedPart } from './repository/parts.ts'

// A document that fails part-way (a parse timeout at row 700,000, a store that gives up) must not
// leave what its pipeline had already stored: its chunks would be searched and its words would
// skew every score in its collection until someone deleted it by hand.
let db: TestDatabase

beforeAll(async () => {
  db = await createTestDatabase('failed-cleanup')
})
afterAll(() => db?.drop())

const hashOf = (n: number) => String(n).repeat(16).slice(0, 16)

/** Stores part `part` of a version through the same functions the store stage runs. */
async function storeRows(documentId: string, contentHash: string, part: number, text: string) {
  const ref = { documentId, contentHash, part }
  await saveParsedPart(db.pool, ref, [{ sourceId: `rows.csv:r${part + 1}`, heading: null, units: [text] }])
  const chunked = chunkSections([{ sourceId: `rows.csv:r${part + 1}`, heading: null, units: [text] }], {
    parentMaxChars: 2000,
    size: 400,
    overlap: 50,
    firstOrdinal: part * PART_ORDINAL_SPAN,
  })
  await advancePart(db.pool, ref, 'embedded', { sections: null, chunked })
  return withTransaction(db.pool, (client) =>
    storePart(client, ref, { chunked, rows: preparePartRows(chunked), embeddingCacheKey: null }),
  )
}

const count = async (sql: string, id: string) =>
  (await db.pool.query<{ n: number }>(sql, [id])).rows[0]?.n ?? -1

it('removes a failed version’s parts, sections, chunks and their statistics at once, keeping its reason', async () => {
  const id = randomUUID()
  await insertDocument(db.pool, {
    id,
    collection: 'hr',
    filename: 'rows.csv',
    contentHash: hashOf(1),
    storedPath: '/nowhere',
    sizeBytes: 1,
    sourceType: 'csv',
    tags: [],
  })
  await storeRows(id, hashOf(1), 0, 'item: projector\nplace: meeting room B')
  await storeRows(id, hashOf(1), 1, 'item: whiteboard\nplace: storage 2F')
  await saveParsedPart(db.pool, { documentId: id, contentHash: hashOf(1), part: 2 }, [])
  expect(await count('SELECT count(*)::int AS n FROM chunks WHERE document_id = $1', id)).toBeGreaterThan(0)

  await markFailed(db.pool, { documentId: id, contentHash: hashOf(1) }, 'parse: timed out after 300 s')

  expect(await count('SELECT count(*)::int AS n FROM chunks WHERE document_id = $1', id)).toBe(0)
  expect(await count('SELECT count(*)::int AS n FROM sections WHERE document_id = $1', id)).toBe(0)
  expect(await count('SELECT count(*)::int AS n FROM ingest_parts WHERE document_id = $1', id)).toBe(0)
  expect(await keywordStatsMismatches(db.pool)).toEqual({ terms: 0, collections: 0 })
  const { rows } = await db.pool.query('SELECT status, error FROM documents WHERE id = $1', [id])
  expect(rows[0]).toEqual({ status: 'failed', error: 'parse: timed out after 300 s' })
  const { rows: stats } = await db.pool.query("SELECT df FROM term_stats WHERE term = 'projector' AND df > 0")
  expect(stats).toEqual([])

  // A part whose store comes after the failure stores nothing.
  expect(await storeRows(id, hashOf(1), 3, 'item: camera\nplace: locker')).toBeNull()
  expect(await count('SELECT count(*)::int AS n FROM chunks WHERE document_id = $1', id)).toBe(0)
})

it('keeps the version search still sees when a re-upload fails', async () => {
  const id = randomUUID()
  await insertDocument(db.pool, {
    id,
    collection: 'hr',
    filename: 'plan.csv',
    contentHash: hashOf(2),
    storedPath: '/nowhere',
    sizeBytes: 1,
    sourceType: 'csv',
    tags: [],
  })
  await storeRows(id, hashOf(2), 0, 'plan: enterprise\nstorage: 2TB')
  // Ready with its first version, then uploaded again: the new version is worked on beside it.
  await db.pool.query(
    "UPDATE documents SET status = 'queued', active_hash = $3, content_hash = $2 WHERE id = $1",
    [id, hashOf(3), hashOf(2)],
  )
  await storeRows(id, hashOf(3), 0, 'plan: enterprise\nstorage: 4TB')
  await markFailed(db.pool, { documentId: id, contentHash: hashOf(3) }, 'store: gave up')
  const { rows } = await db.pool.query<{ hash: string; n: number }>(
    'SELECT content_hash AS hash, count(*)::int AS n FROM chunks WHERE document_id = $1 GROUP BY content_hash',
    [id],
  )
  expect(rows).toEqual([{ hash: hashOf(2), n: 1 }])
  expect(await keywordStatsMismatches(db.pool)).toEqual({ terms: 0, collections: 0 })
})

import { randomUUID } from 'node:crypto'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { tokenize } from '@rag/keyword'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hashedLookup, keywordScoreSql, keywordSearch, withKeywordPlan } from './keyword-search.ts'

// One collection's bulk must not hide another's passages: keyword candidates once came from the
// index up to a budget (16,000) before other collections' were dropped, so 20,000 rows holding a
// reader's words in a collection it cannot see left it no hit, and a refusal, for its own document.
let db: TestDatabase

async function insertChunks(collection: string, filename: string, texts: string[]) {
  const id = randomUUID()
  await db.pool.query(
    `INSERT INTO documents (id, collection, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
     VALUES ($1, $2, $3, 'text', '/dev/null', 'h', 1, 'ready', 'h')`,
    [id, collection, filename],
  )
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, text) VALUES ($1, 'h', 0, $2, 'x') RETURNING id`,
    [id, `${filename}:s1`],
  )
  await db.pool.query(
    `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count)
     SELECT $1, 'h', $2, i - 1, $3 || ':c' || i, t, 'x', ARRAY(SELECT json_array_elements_text($4::json -> (i - 1)::int)), 3
       FROM unnest($5::text[]) WITH ORDINALITY AS a(t, i)`,
    [id, rows[0]?.id, filename, JSON.stringify(texts.map((text) => tokenize(text))), texts],
  )
}

const QUESTION = 'ferry timetable harbour'
const search = () => keywordSearch(db.pool, QUESTION, { limit: 5, collection: 'reader' })

beforeAll(async () => {
  db = await createTestDatabase('collection-isolation')
  await insertChunks('reader', 'timetable.txt', [
    'The ferry timetable for the harbour changes in winter.',
    'Parking near the station is free on Sundays.',
  ])
}, 300_000)
afterAll(() => db?.drop())

describe('a search of one collection', () => {
  it('finds the same passages, in the same order, however many with its words another collection holds', async () => {
    const alone = await search()
    expect(alone[0]).toBeDefined()
    // 20,000 passages with every word of the question, in a collection the reader cannot see.
    for (let batch = 0; batch < 20; batch++)
      await insertChunks(
        'bulk',
        `bulk-${batch}.txt`,
        Array.from({ length: 1000 }, (_, i) => `ferry timetable harbour notice ${batch * 1000 + i}`),
      )
    await db.pool.query('ANALYZE chunks')
    const crowded = await search()
    expect(crowded.map((hit) => hit.chunkId)).toEqual(alone.map((hit) => hit.chunkId))
    expect(crowded.map((hit) => hit.score)).toEqual(alone.map((hit) => hit.score))
  })

  it('reads its own postings of the keyword index, keyed by collection, not every collection’s', async () => {
    const terms = tokenize(QUESTION)
    const sql = keywordScoreSql('&&')
    const plan = await withKeywordPlan(db.pool, (client) =>
      client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [
        terms,
        terms.map(() => 1),
        terms,
        'reader',
        2000,
        1.2,
        0.75,
        5,
        10,
        terms,
        30,
        true,
        hashedLookup(terms),
        null,
        ['reader'],
      ]),
    )
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(
      /Bitmap Index Scan on chunks_collection_terms_idx[^\n]*\n\s+Index Cond: \(\(collection = ANY/,
    )
  })
})

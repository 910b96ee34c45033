import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keywordStatsMismatches } from '@rag/db/testing'
import { ANALYZER_VERSION, analyzeText, tokenize } from '@rag/keyword'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { reanalyzeKeywordIndex } from './repository/reanalyze-keyword-index.ts'
import { type IngestionFixture, ingestTexts, startIngestionFixture } from './testing.ts'

let fixture: IngestionFixture
let uploadDir: string

const TEXTS = {
  'heian.txt': '平安京は794年に定めた都で、のちに人々は京都と呼ぶようになった。',
  'kyoto.txt': '京都の町は碁盤の目のように区画され、古都と呼ばれている。',
  'lamp.txt': 'The lamps are charging over USB-C.',
}

beforeAll(async () => {
  fixture = await startIngestionFixture('reanalyze')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-reanalyze-'))
  await ingestTexts(fixture, uploadDir, TEXTS)
})

afterAll(async () => {
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const statsMismatches = async () => (await keywordStatsMismatches(fixture.db.pool)).terms

it('re-analyses an index the first analyser made, recounts its statistics, and records the analyser', async () => {
  const { pool } = fixture.db
  // The index as the ICU-words analyser left it: other terms, no pairs, no parent counts.
  const { rows: chunks } = await pool.query<{ id: string; text: string }>(
    'SELECT id::text AS id, text FROM chunks',
  )
  for (const chunk of chunks) {
    const terms = tokenize(chunk.text, 'icu')
    await pool.query(
      "UPDATE chunks SET terms = $2, term_count = $3, bigrams = '{}', bigram_count = 0 WHERE id = $1",
      [chunk.id, terms, terms.length],
    )
  }
  await pool.query(`UPDATE sections SET term_tf = '{}', term_count = 0`)
  await pool.query(`UPDATE keyword_index SET analyzer = 'icu-1'`)
  expect(await statsMismatches()).toBeGreaterThan(0)

  const done = await reanalyzeKeywordIndex(pool, { logger: fixture.logger, batchSize: 2 })
  expect(done).toEqual({ from: 'icu-1', sections: 3, chunks: 3 })
  const { rows } = await pool.query<{ text: string; terms: string[]; bigrams: string[]; parent: number }>(
    'SELECT c.text, c.terms, c.bigrams, s.term_count AS parent FROM chunks c JOIN sections s ON s.id = c.section_id',
  )
  for (const row of rows) {
    const analysed = analyzeText(row.text)
    expect(row.terms).toEqual(analysed.words)
    expect(row.bigrams).toEqual([...new Set(analysed.bigrams)].sort())
    expect(row.parent).toBe(analysed.words.length)
  }
  expect(await statsMismatches()).toBe(0)
  const { rows: index } = await pool.query<{ analyzer: string }>('SELECT analyzer FROM keyword_index')
  expect(index[0]?.analyzer).toBe(ANALYZER_VERSION)
  // Nothing left to do.
  expect(await reanalyzeKeywordIndex(pool, { logger: fixture.logger })).toBeNull()
})

it('says nothing of an older analyser on a brand-new database, and records this one', async () => {
  const empty = await startIngestionFixture('reanalyze-empty')
  try {
    const told: string[] = []
    const logger = createLogger({
      name: 'test',
      level: 'info',
      destination: { write: (line: string) => told.push(line) },
    })
    expect(await reanalyzeKeywordIndex(empty.db.pool, { logger })).toBeNull()
    expect(told).toEqual([])
    const { rows } = await empty.db.pool.query<{ analyzer: string }>('SELECT analyzer FROM keyword_index')
    expect(rows[0]?.analyzer).toBe(ANALYZER_VERSION)
  } finally {
    await empty.close()
  }
})

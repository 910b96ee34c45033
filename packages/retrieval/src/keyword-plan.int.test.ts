import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { tokenize } from '@rag/keyword'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  candidateTerms,
  hashedLookup,
  keywordScoreSql,
  type TermStat,
  withKeywordPlan,
} from './keyword-search.ts'

// The keyword query's plan on a corpus of many documents with a Zipf-like vocabulary (the shape of
// real text): candidates must come from the GIN index on terms, not from walking every document.
let db: TestDatabase

// Real text: SQuAD dev's articles and SciFact's abstracts (grouped 50 to a document), chunked at
// about 500 characters and tokenized as the pipeline does; queries are real questions.
const tests = testConfig.parse(processEnvironment()).test
const [{ path: squadPath, found: hasSquad }, { path: scifactPath, found: hasScifact }] = await Promise.all([
  findTestAsset(tests, 'data/squad-v1.1-dev/dev-v1.1.json'),
  findTestAsset(tests, 'data/beir-scifact/corpus.jsonl'),
])
let questions: string[] = []

const chunksOf = (text: string) => text.match(/[\s\S]{1,500}(?=\s|$)/g) ?? [text]

async function insertDocument(
  target: TestDatabase,
  name: string,
  texts: string[],
  split: (text: string) => string[] = chunksOf,
  /** Each chunk's stored text ('' leaves rows as narrow as terms alone make them). */
  chunkText = 'x',
) {
  const id = randomUUID()
  await target.pool.query(
    `INSERT INTO documents (id, collection, filename, source_type, stored_path, content_hash, size_bytes, status, active_hash)
     VALUES ($1, 'default', $2, 'text', '/dev/null', 'h', 1, 'ready', 'h')`,
    [id, name],
  )
  const { rows } = await target.pool.query<{ id: string }>(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, text) VALUES ($1, 'h', 0, $2, 'x') RETURNING id`,
    [id, `${name}:s1`],
  )
  const terms = texts.flatMap(split).map((chunk) => tokenize(chunk))
  await target.pool.query(
    `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count)
     SELECT $1, 'h', $2, i - 1, $3, $5, 'x', ARRAY(SELECT json_array_elements_text(t)), json_array_length(t)
       FROM json_array_elements($4::json) WITH ORDINALITY AS a(t, i)`,
    [id, rows[0]?.id, `${name}:s1`, JSON.stringify(terms), chunkText],
  )
}

beforeAll(async () => {
  db = await createTestDatabase('keyword-plan')
  if (!hasSquad || !hasScifact) return
  const squad = JSON.parse(await readFile(squadPath, 'utf8')) as {
    data: { title: string; paragraphs: { context: string; qas: { question: string }[] }[] }[]
  }
  for (const article of squad.data)
    await insertDocument(
      db,
      `${article.title}.txt`,
      article.paragraphs.map((paragraph) => paragraph.context),
    )
  questions = squad.data.flatMap((article) =>
    article.paragraphs.flatMap((p) => p.qas.map((qa) => qa.question)),
  )
  const abstracts = (await readFile(scifactPath, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { text: string }).text)
  for (let i = 0; i < abstracts.length; i += 50)
    await insertDocument(db, `scifact-${i / 50}.txt`, abstracts.slice(i, i + 50))
  await db.pool.query('ANALYZE documents; ANALYZE chunks')
  // Loading 152 documents through the statistics triggers takes a while on PGlite.
}, 300_000)
afterAll(async () => {
  await db?.drop()
})

async function planOf(
  target: TestDatabase,
  match: '&&' | '@>',
  terms: string[],
  scope: string[] | null = null,
): Promise<string> {
  const sql = keywordScoreSql(match)
  // Planned as the search plans it (its planner settings included).
  const { rows } = await withKeywordPlan(target.pool, (client) =>
    client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [
      terms,
      terms.map(() => 1),
      terms,
      null,
      2000,
      1.2,
      0.75,
      60,
      10,
      terms,
      30,
      true,
      hashedLookup(terms),
      null,
      scope,
    ]),
  )
  return rows.map((row) => row['QUERY PLAN']).join('\n')
}

describe.skipIf(!hasSquad || !hasScifact)('the keyword query plan on real text', () => {
  it('takes its candidates from the GIN index on terms and reads only their documents, by id', async () => {
    const documents = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM documents')
    expect(documents.rows[0]?.n).toBeGreaterThan(150)
    // Every 500th question, both ways the search asks: its rarest terms within the candidate
    // budget (any of them), or its two rarest together.
    for (const question of questions.filter((_, i) => i % 500 === 0)) {
      const { rows: stats } = await db.pool.query<TermStat>(
        'SELECT term, df::float8 AS df FROM term_stats WHERE term = ANY($1::text[]) AND df > 0',
        [[...new Set(tokenize(question))]],
      )
      const { byRarity, rare } = candidateTerms(stats, 2000)
      for (const [match, terms] of [
        ['&&', rare],
        ['@>', byRarity.slice(0, 2).map((stat) => stat.term)],
      ] as const) {
        const plan = await planOf(db, match, [...terms])
        expect(plan, `${question}\n${plan}`).toMatch(/Bitmap Index Scan on chunks_collection_terms_idx/)
        expect(plan, `${question}\n${plan}`).not.toMatch(/chunks_document_idx/)
        // Only the candidates' own documents, by id: not every document hashed for each query.
        expect(plan, `${question}\n${plan}`).toMatch(
          /on documents d[^\n]*\n\s+(Index|Recheck) Cond: \(id = ANY/,
        )
      }
    }
  })
})

// Ten thousand chunks of 500 characters in documents of 20 (the shape `pnpm bench ask` measured at
// 10k): the planner prices the overlap test per row as nearly free, and once a question's
// candidates were a sixth of such a corpus it scanned every chunk instead of the index (83 ms p95).
describe.skipIf(!hasSquad)('the keyword query plan when candidates are a large share of the corpus', () => {
  let small: TestDatabase
  const question =
    'In March 2007, the Mission Council of the South Central jurisdiction approved a 99-year lease on how many acres?'
  beforeAll(async () => {
    small = await createTestDatabase('keyword-plan-large-share')
    const squad = JSON.parse(await readFile(squadPath, 'utf8')) as {
      data: { paragraphs: { context: string }[] }[]
    }
    const chunks = squad.data
      .flatMap((article) => article.paragraphs.flatMap((paragraph) => chunksOf(paragraph.context)))
      .slice(0, 10_000)
    for (let i = 0; i < chunks.length; i += 20)
      await insertDocument(small, `doc-${i / 20}.txt`, chunks.slice(i, i + 20), (text) => [text], '')
    await small.pool.query('ANALYZE documents; ANALYZE chunks')
  }, 300_000)
  afterAll(() => small?.drop())

  it('still takes them from the GIN index', async () => {
    const { rows: stats } = await small.pool.query<TermStat>(
      'SELECT term, df::float8 AS df FROM term_stats WHERE term = ANY($1::text[]) AND df > 0',
      [[...new Set(tokenize(question))]],
    )
    const { rare } = candidateTerms(stats, 2000)
    const plan = await planOf(small, '&&', rare)
    expect(plan).toMatch(/Bitmap Index Scan on chunks_collection_terms_idx/)
    expect(plan).not.toMatch(/Seq Scan on chunks/)
  })
})

describe('the keyword index', () => {
  it('has no pending list: new terms are searchable through the index at once, not scanned per query', async () => {
    const { rows } = await db.pool.query<{ options: string[] | null }>(
      `SELECT c.reloptions AS options FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relname = 'chunks_collection_terms_idx' AND n.nspname = current_schema()`,
    )
    expect(rows[0]?.options).toContain('fastupdate=off')
  })
})

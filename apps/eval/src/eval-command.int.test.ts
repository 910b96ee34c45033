import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { evalConfig } from '@rag/config'
import { quoteIdentifier } from '@rag/db'
import { createTestDatabase, readTestConfig, type TestDatabase } from '@rag/db/testing'
import type { EvaluationReport } from '@rag/evaluation'
import { createLogger } from '@rag/log'
import { dropPrefix, uniquePrefix } from '@rag/queue/testing'
import { Worker } from 'bullmq'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type EvalArgs, runEvalCommand } from './eval-command.ts'

// The committed eval set over data/sample, run through the whole pipeline in keyword and
// extractive mode: the regression gate of the test suite (--baseline with --max-drop 0).
const root = fileURLToPath(new URL('../../../', import.meta.url))
const logger = createLogger({ name: 'test', level: 'silent' })
const redisUrl = readTestConfig().redisUrl
const prefix = uniquePrefix('eval')
let db: TestDatabase
let scratch: string

beforeAll(async () => {
  db = await createTestDatabase('eval_user')
  scratch = await mkdtemp(join(tmpdir(), 'rag-eval-'))
})
afterAll(async () => {
  const { rows } = await db.pool.query<{ name: string }>(
    "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'eval\\_sample\\_questions\\_%'",
  )
  for (const { name } of rows) await db.pool.query(`DROP SCHEMA ${quoteIdentifier(name)} CASCADE`)
  await db?.drop()
  await dropPrefix(redisUrl, `${prefix}-eval`)
  await rm(scratch, { recursive: true, force: true })
})

const config = (env: Record<string, string> = {}) =>
  evalConfig.parse({
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    DATA_DIR: scratch,
    EMBEDDING_MODEL: 'none',
    RERANKER_MODEL: 'none',
    LLM_MODEL: 'none',
    LOG_LEVEL: 'silent',
    ...env,
  })

async function run(args: Partial<EvalArgs>, env: Record<string, string> = {}) {
  const lines: string[] = []
  const output = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n'))
      done()
    },
  })
  const code = await runEvalCommand(
    {
      dataset: join(root, 'data/eval/sample-questions.json'),
      format: 'auto',
      docs: join(root, 'data/sample'),
      configs: 'keyword,extractive',
      out: join(scratch, 'out'),
      maxDrop: 0.02,
      ...args,
    },
    config(env),
    { output, logger, progress: () => undefined },
  )
  return { code, text: lines.join('\n') }
}

describe('pnpm eval on the committed sample set', () => {
  it('finds every expected source first, refuses every unanswerable question, and holds the baseline', async () => {
    const { code, text } = await run({ baseline: join(root, 'data/eval/sample-baseline.json'), maxDrop: 0 })
    expect(text).toContain('no metric fell more than 0')
    expect(code, text).toBe(0)
    const report = JSON.parse(await readFile(join(scratch, 'out/report.json'), 'utf8')) as EvaluationReport
    const keyword = report.configs.find((c) => c.name === 'keyword')
    expect(keyword?.metrics).toMatchObject({
      'hit@1': 1,
      'mrr@10': 1,
      'source@1': 1,
      noAnswerAccuracy: 1,
      falseRefusalRate: 0,
    })
    const extractive = report.configs.find((c) => c.name === 'extractive')
    expect(extractive?.metrics.faithfulness).toBeGreaterThan(0.9)
    expect(extractive?.metrics.citationValidity).toBe(1)
    const markdown = await readFile(join(scratch, 'out/report.md'), 'utf8')
    expect(markdown.split('\n')[0]).toBe('=== Evaluation Report ===')
    expect(markdown).toMatch(/chunk size 500, overlap 100/)
    expect(markdown).toContain(
      'Refusal threshold sweep on the answerability probability scale (REFUSAL_THRESHOLD): best',
    )
    // Evaluation wrote only to its own schema: the user's is as empty as it was.
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM documents')
    expect(rows[0]?.n).toBe(0)
  })

  it('reuses the ingested corpus on the next run, and fails the gate when a metric falls', async () => {
    const baseline = JSON.parse(
      await readFile(join(root, 'data/eval/sample-baseline.json'), 'utf8'),
    ) as EvaluationReport
    for (const c of baseline.configs) c.metrics['hit@1'] = 1.5
    await writeFile(join(scratch, 'raised.json'), JSON.stringify(baseline))
    const { code, text } = await run({ configs: 'keyword', baseline: join(scratch, 'raised.json') })
    expect(code, text).toBe(1)
    expect(text).toMatch(/REGRESSION keyword hit@1: 1.500 → 1 \(allowed drop 0.02\)/)
    const report = JSON.parse(await readFile(join(scratch, 'out/report.json'), 'utf8')) as EvaluationReport
    expect(report.ingest.reused).toBe(true)
  })
})

describe('the eval gate compares like with like', () => {
  it('holds when models are configured but unreachable, since no figure came from them', async () => {
    const models = join(scratch, 'no-models')
    await mkdir(models, { recursive: true })
    const { code, text } = await run(
      { baseline: join(root, 'data/eval/sample-baseline.json'), maxDrop: 0 },
      {
        EMBEDDING_MODEL: 'Xenova/multilingual-e5-small',
        RERANKER_MODEL: 'hotchpotch/japanese-reranker-xsmall-v2',
        LLM_MODEL: 'hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
        MODELS_DIR: models,
        ALLOW_MODEL_DOWNLOAD: 'false',
      },
    )
    expect(text).not.toContain('REGRESSION')
    expect(code, text).toBe(0)
  })

  it('fails, saying why, when a config runs with other settings or is missing on either side', async () => {
    const baseline = join(root, 'data/eval/sample-baseline.json')
    // A baseline measured at another refusal threshold (the default before it was calibrated).
    const old = JSON.parse(await readFile(baseline, 'utf8')) as EvaluationReport
    old.settings.refusalThreshold = 0.2
    await writeFile(join(scratch, 'old-threshold.json'), JSON.stringify(old))
    const changed = await run({ baseline: join(scratch, 'old-threshold.json'), maxDrop: 0 })
    expect(changed.code, changed.text).toBe(1)
    expect(changed.text).toContain(
      'REGRESSION setting refusalThreshold differs from the baseline (0.2 → 0.5)',
    )
    const overridden = await run({ configs: 'keyword:k1=0.9,extractive', baseline, maxDrop: 0 })
    expect(overridden.code, overridden.text).toBe(1)
    expect(overridden.text).toContain('REGRESSION keyword:k1=0.9: not in the baseline')
    const extra = await run({ configs: 'keyword,extractive,parents-off:mode=keyword', baseline, maxDrop: 0 })
    expect(extra.code, extra.text).toBe(1)
    expect(extra.text).toContain('REGRESSION parents-off:mode=keyword: not in the baseline')
    const fewer = await run({ configs: 'keyword', baseline, maxDrop: 0 })
    expect(fewer.text).toContain('REGRESSION extractive: in the baseline but not run')
  })
})

describe('pnpm eval on outside sets', () => {
  it('reads rag-demo style qa.jsonl with null fields and writes a record per question', async () => {
    await writeFile(
      join(scratch, 'demo-docs.jsonl'),
      [
        { doc_id: 'warranty', title: null, text: 'The warranty lasts two years from the date of purchase.' },
        {
          // Exports name the id `id` or `_id` as often as `doc_id`.
          id: 'charging',
          title: 'Charging',
          text: 'A full charge takes about three hours with the USB-C cable.',
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    )
    await writeFile(
      join(scratch, 'demo-qa.jsonl'),
      [
        { question: 'How long does the warranty last?', gold_doc_id: 'warranty', subtype: null },
        { question: 'How long does a full charge take?', gold_doc_id: 'charging', subtype: 'lookup' },
        { question: 'Who founded the company?', gold_doc_id: null, subtype: null, expected_keywords: null },
        { question: 'Where is the company based?', gold_doc_id: null, subtype: 'lookup' },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    )
    const { code, text } = await run({
      dataset: join(scratch, 'demo-qa.jsonl'),
      docs: join(scratch, 'demo-docs.jsonl'),
      configs: 'keyword,extractive',
      out: join(scratch, 'demo-out'),
    })
    expect(text).not.toContain('error:')
    expect(code, text).toBe(0)
    const records = (await readFile(join(scratch, 'demo-out/questions-extractive.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            query: string
            firstRelevantRank: number | null
            refused: boolean
            answer: string | null
          },
      )
    expect(records.map((r) => [r.firstRelevantRank, r.refused])).toEqual([
      [1, false],
      [1, false],
      [null, true],
      [null, true],
    ])
    // Each record carries the answer as written.
    expect(records[0]?.answer).toMatch(/two years/)
    const report = JSON.parse(
      await readFile(join(scratch, 'demo-out/report.json'), 'utf8'),
    ) as EvaluationReport
    // Right at the configured threshold, over all questions and per subtype.
    expect(report.configs[0]?.metrics).toMatchObject({
      accuracy: 1,
      'subtype.lookup.accuracy': 1,
      'subtype.lookup.questions': 2,
    })
  })
})

describe('evaluation corpora in the database', () => {
  it('keeps the most recently used ones and drops older ones it made, never anything else', async () => {
    const pool = db.pool
    await pool.query('CREATE SCHEMA IF NOT EXISTS eval_old_marked_test')
    await pool.query(
      "COMMENT ON SCHEMA eval_old_marked_test IS 'rag eval corpus; last used 2020-01-01T00:00:00.000Z'",
    )
    await pool.query('CREATE SCHEMA IF NOT EXISTS eval_someone_elses_test')
    const { code, text } = await run({ configs: 'keyword', keepSchemas: 1 })
    expect(code, text).toBe(0)
    expect(text).toMatch(/dropped \d+ older evaluation corpora: .*eval_old_marked_test/)
    const names = async () =>
      (
        await pool.query<{ name: string }>(
          "SELECT nspname AS name FROM pg_namespace WHERE nspname LIKE 'eval\\_%'",
        )
      ).rows.map((row) => row.name)
    expect(await names()).not.toContain('eval_old_marked_test')
    expect(await names()).toContain('eval_someone_elses_test')
    expect((await names()).some((name) => name.startsWith('eval_sample_questions_'))).toBe(true)
    await pool.query('DROP SCHEMA eval_someone_elses_test')
  })
})

describe('pnpm eval with bad input', () => {
  it('names the line of a malformed dataset line', async () => {
    await writeFile(join(scratch, 'docs.jsonl'), '{"doc_id": "a", "title": "A", "text": "alpha"}\n')
    await writeFile(join(scratch, 'qa.jsonl'), '{"question": "a?", "gold_doc_id": "a"}\n\n{"question": \n')
    const { code, text } = await run({
      dataset: join(scratch, 'qa.jsonl'),
      docs: join(scratch, 'docs.jsonl'),
    })
    expect(code, text).toBe(2)
    expect(text).toContain(`error: ${join(scratch, 'qa.jsonl')}:3: not valid JSON`)
  })

  it('refuses a questions file inside the documents folder, saying so', async () => {
    const folder = join(scratch, 'docs-with-questions')
    await mkdir(folder, { recursive: true })
    await writeFile(join(folder, 'guide.txt'), 'The warranty lasts two years.')
    await writeFile(
      join(folder, 'questions.json'),
      JSON.stringify([
        { query: 'How long is the warranty?', expected_source: 'guide.txt', expected_keywords: [] },
      ]),
    )
    const { code, text } = await run({ dataset: join(folder, 'questions.json'), docs: folder })
    expect(code, text).toBe(2)
    expect(text).toContain('the questions file is inside --docs')
    expect(text).not.toMatch(/\n\s+at /)
  })

  it('says what is wrong with a missing file, an unknown format or config', async () => {
    expect((await run({ dataset: join(scratch, 'nope.json') })).text).toMatch(
      /nope\.json: no such file or folder/,
    )
    expect((await run({ format: 'csv' as never })).text).toMatch(/unknown format "csv"/)
    expect((await run({ configs: 'keyword,magic' })).text).toMatch(/unknown config "magic"/)
    expect((await run({ configs: 'hybrid:alpha=2' })).text).toMatch(/alpha=2: expected a number from 0 to 1/)
  })

  it('refuses to start beside another run on the same queue prefix instead of hanging', async () => {
    // Another evaluation's worker, holding the prefix's retrieve queue.
    const other = new Worker('question.retrieve', async () => undefined, {
      connection: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      prefix: `${prefix}-eval`,
    })
    try {
      await other.waitUntilReady()
      const { code, text } = await run({})
      expect(code, text).toBe(2)
      expect(text).toContain(`another evaluation is running with QUEUE_PREFIX=${prefix}`)
    } finally {
      await other.close()
    }
  })
})

import type { Pool } from '@rag/db'
import type { QuestionOutcome } from './question-outcomes.ts'
import type { EvaluationReport } from './report.ts'
import { isRight } from './score-config.ts'

/** A kept evaluation run, as the Evaluation view lists it. */
export interface EvaluationRun {
  id: string
  collection: string | null
  dataset: string
  status: 'running' | 'done' | 'failed'
  error: string | null
  done: number
  total: number
  startedBy: string
  createdAt: string
  updatedAt: string
}

/** A run with its report (the per-question outcomes are read apart, a page at a time). */
export interface EvaluationRunDetail extends EvaluationRun {
  report: EvaluationReport | null
}

/** A run that has not moved for this long was stopped (its process ended): it is failed when read. */
export const RUN_SILENT_MS = 10 * 60_000
const COLUMNS = `id::text, collection, dataset, status, error, done, total, started_by AS "startedBy",
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
  to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt"`
/** Outcomes written per statement: a 50,000-question run is 50 inserts, not one huge one. */
const INSERT_BATCH = 1000

export async function startRun(
  pool: Pool,
  run: { id: string; collection: string | null; dataset: string; total: number; startedBy: string },
): Promise<void> {
  await pool.query(
    `INSERT INTO evaluation_runs (id, collection, dataset, status, total, started_by) VALUES ($1, $2, $3, 'running', $4, $5)`,
    [run.id, run.collection, run.dataset, run.total, run.startedBy],
  )
}

/** Progress of a running run (questions answered over all configs): also its sign of life. */
export async function runProgress(pool: Pool, id: string, done: number, total: number): Promise<void> {
  await pool.query(
    `UPDATE evaluation_runs SET done = $2, total = $3, updated_at = now() WHERE id = $1 AND status = 'running'`,
    [id, done, total],
  )
}

/** Keeps a finished run: the report without its per-question outcomes, which go row by row. */
export async function finishRun(pool: Pool, id: string, report: EvaluationReport): Promise<void> {
  for (const config of report.configs) {
    for (let start = 0; start < config.questions.length; start += INSERT_BATCH) {
      const batch = config.questions.slice(start, start + INSERT_BATCH)
      await pool.query(
        `INSERT INTO evaluation_run_questions (run_id, config, ordinal, correct, outcome)
         SELECT $1, $2, start + ordinality - 1, right_one, outcome
           FROM unnest($3::boolean[], $4::jsonb[]) WITH ORDINALITY AS u(right_one, outcome), (SELECT $5::int AS start) s`,
        [id, config.name, batch.map(isRight), batch.map((outcome) => JSON.stringify(outcome)), start],
      )
    }
  }
  const kept = { ...report, configs: report.configs.map(({ questions: _questions, ...config }) => config) }
  await pool.query(
    `UPDATE evaluation_runs SET status = 'done', report = $2, done = total, updated_at = now() WHERE id = $1`,
    [id, JSON.stringify(kept)],
  )
}

export async function failRun(pool: Pool, id: string, error: string): Promise<void> {
  await pool.query(
    `UPDATE evaluation_runs SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status = 'running'`,
    [id, error.slice(0, 2000)],
  )
}

/** Runs whose process stopped (silent past RUN_SILENT_MS) are failed, saying so, before any is read. */
async function failSilentRuns(pool: Pool): Promise<void> {
  await pool.query(
    `UPDATE evaluation_runs SET status = 'failed', updated_at = now(),
            error = 'the run stopped (its process ended before it finished); run it again'
      WHERE status = 'running' AND updated_at < now() - make_interval(secs => $1)`,
    [RUN_SILENT_MS / 1000],
  )
}

/** The newest runs first, of some collections (null: every run, dataset runs included). */
export async function listRuns(
  pool: Pool,
  { collections, collection, limit }: { collections: string[] | null; collection?: string; limit: number },
): Promise<EvaluationRun[]> {
  await failSilentRuns(pool)
  const { rows } = await pool.query<EvaluationRun>(
    `SELECT ${COLUMNS} FROM evaluation_runs
      WHERE ($1::text[] IS NULL OR collection = ANY($1)) AND ($2::text IS NULL OR collection = $2)
      ORDER BY created_at DESC, id LIMIT $3`,
    [collections, collection ?? null, limit],
  )
  return rows
}

export async function readRun(pool: Pool, id: string): Promise<EvaluationRunDetail | null> {
  await failSilentRuns(pool)
  const { rows } = await pool.query<EvaluationRunDetail>(
    `SELECT ${COLUMNS}, report FROM evaluation_runs WHERE id = $1`,
    [id],
  )
  return rows[0] ?? null
}

/** A page of one configuration's per-question outcomes, in the dataset's order; `wrongOnly`: those not right. */
export async function runQuestions(
  pool: Pool,
  id: string,
  { config, offset, limit, wrongOnly }: { config: string; offset: number; limit: number; wrongOnly: boolean },
): Promise<{ questions: (QuestionOutcome & { correct: boolean })[]; total: number }> {
  const { rows } = await pool.query<{ outcome: QuestionOutcome; correct: boolean; total: number }>(
    `SELECT outcome, correct, count(*) OVER ()::int AS total FROM evaluation_run_questions
      WHERE run_id = $1 AND config = $2 AND (NOT $3::boolean OR NOT correct)
      ORDER BY ordinal LIMIT $4 OFFSET $5`,
    [id, config, wrongOnly, limit, offset],
  )
  const total =
    rows[0]?.total ??
    (
      await pool.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM evaluation_run_questions
          WHERE run_id = $1 AND config = $2 AND (NOT $3::boolean OR NOT correct)`,
        [id, config, wrongOnly],
      )
    ).rows[0]?.total ??
    0
  return { questions: rows.map((row) => ({ ...row.outcome, correct: row.correct })), total }
}

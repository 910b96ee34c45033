import type { ApiEvaluationCase } from '@rag/api-contract'
import type { Pool } from '@rag/db'

export type EvaluationCase = ApiEvaluationCase

const COLUMNS = `id::text, collection, question, expected_source AS "expectedSource", feedback_id::text AS "feedbackId",
  created_by AS "createdBy", to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`

/** Adds a question to a collection's evaluation set (the same question again replaces its expectation). */
export async function saveEvaluationCase(
  pool: Pool,
  entry: {
    id: string
    collection: string
    question: string
    expectedSource: string | null
    feedbackId: string | null
    createdBy: string
  },
): Promise<EvaluationCase> {
  const { rows } = await pool.query<EvaluationCase>(
    `INSERT INTO evaluation_cases (id, collection, question, expected_source, feedback_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (collection, question) DO UPDATE SET expected_source = excluded.expected_source,
       feedback_id = excluded.feedback_id, created_by = excluded.created_by, created_at = now()
     RETURNING ${COLUMNS}`,
    [entry.id, entry.collection, entry.question, entry.expectedSource, entry.feedbackId, entry.createdBy],
  )
  return rows[0] as EvaluationCase
}

/** A collection's evaluation set, oldest first (the order it was built in). */
export async function listEvaluationCases(pool: Pool, collection: string): Promise<EvaluationCase[]> {
  const { rows } = await pool.query<EvaluationCase>(
    `SELECT ${COLUMNS} FROM evaluation_cases WHERE collection = $1 ORDER BY created_at, id`,
    [collection],
  )
  return rows
}

export async function deleteEvaluationCase(pool: Pool, collection: string, id: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM evaluation_cases WHERE collection = $1 AND id = $2', [
    collection,
    id,
  ])
  return (rowCount ?? 0) > 0
}

/**
 * Whether a collection's ready documents hold a passage of this source id — what a case may
 * expect (an evaluation finds only those; a misspelt or deleted one would fail every run).
 */
export async function collectionHoldsSource(
  pool: Pool,
  collection: string,
  sourceId: string,
): Promise<boolean> {
  const { rows } = await pool.query<{ held: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM chunks ch JOIN documents d ON d.id = ch.document_id AND d.active_hash = ch.content_hash
        WHERE d.collection = $1 AND ch.source_id = $2) AS held`,
    [collection, sourceId],
  )
  return rows[0]?.held === true
}

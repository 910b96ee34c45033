import type { ApiFeedback, FeedbackReason, FeedbackVerdict } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import type { QuestionRecord } from '../question-store.ts'

export type FeedbackRecord = ApiFeedback

export interface GivenFeedback {
  verdict: FeedbackVerdict
  reason?: FeedbackReason
  comment?: string
  /** Whose question it is (its owner), and who said it (a name for reviewers). */
  owner: string
  givenBy: string
}

const COLUMNS = `id::text, question_id::text AS "questionId", question, answer, refused, sources, collections,
  verdict, reason, comment, given_by AS "givenBy", to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`

/** The collections a question asked and was answered from: who may review its feedback. */
export function collectionsOf(question: Pick<QuestionRecord, 'options' | 'sources'>): string[] {
  const names = new Set<string>()
  if (question.options.collection) names.add(question.options.collection)
  for (const source of question.sources) if (source.collection) names.add(source.collection)
  return [...names].sort()
}

/**
 * Records what a person said of an answer, with a snapshot of the question, its answer and its
 * sources (the question expires; the feedback is kept for evaluation). Saying it again replaces it.
 */
export async function saveFeedback(
  pool: Pool,
  id: string,
  question: QuestionRecord,
  given: GivenFeedback,
): Promise<FeedbackRecord> {
  const { rows } = await pool.query<FeedbackRecord>(
    `INSERT INTO question_feedback AS f
       (id, question_id, owner, given_by, collections, question, answer, refused, sources, verdict, reason, comment)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (question_id, owner) DO UPDATE SET
       verdict = excluded.verdict, reason = excluded.reason, comment = excluded.comment,
       given_by = excluded.given_by, created_at = now()
     RETURNING ${COLUMNS}`,
    [
      id,
      question.id,
      given.owner,
      given.givenBy,
      collectionsOf(question),
      question.question,
      question.answer,
      question.refused,
      JSON.stringify(question.sources.map((source) => source.sourceId)),
      given.verdict,
      given.reason ?? null,
      given.comment ?? null,
    ],
  )
  return rows[0] as FeedbackRecord
}

export interface FeedbackFilter {
  /** The collections the reader may see (null: all). Feedback on others, or on none, is left out. */
  visible: string[] | null
  collection?: string
  verdict?: FeedbackVerdict
  reason?: FeedbackReason
  since?: string
  until?: string
  limit: number
}

/** Feedback, newest first, as a reviewer filters it, within what the reader may see. */
export async function listFeedback(pool: Pool, filter: FeedbackFilter): Promise<FeedbackRecord[]> {
  const { rows } = await pool.query<FeedbackRecord>(
    `SELECT ${COLUMNS} FROM question_feedback
      WHERE ($1::text[] IS NULL OR (cardinality(collections) > 0 AND collections <@ $1::text[]))
        AND ($2::text IS NULL OR $2 = ANY (collections))
        AND ($3::text IS NULL OR verdict = $3)
        AND ($4::text IS NULL OR reason = $4)
        AND ($5::timestamptz IS NULL OR created_at >= $5)
        AND ($6::timestamptz IS NULL OR created_at < $6)
      ORDER BY created_at DESC, id LIMIT $7`,
    [
      filter.visible,
      filter.collection ?? null,
      filter.verdict ?? null,
      filter.reason ?? null,
      filter.since ?? null,
      filter.until ?? null,
      filter.limit,
    ],
  )
  return rows
}

/** One feedback, when the reader may see it (its collections within `visible`; null: all). */
export async function readFeedback(
  pool: Pool,
  id: string,
  visible: string[] | null,
): Promise<FeedbackRecord | null> {
  const { rows } = await pool.query<FeedbackRecord>(
    `SELECT ${COLUMNS} FROM question_feedback
      WHERE id = $1 AND ($2::text[] IS NULL OR (cardinality(collections) > 0 AND collections <@ $2::text[]))`,
    [id, visible],
  )
  return rows[0] ?? null
}

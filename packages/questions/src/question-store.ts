import { QUESTION_STATUSES, type QuestionStatus } from '@rag/api-contract/enums'
import type { Pool } from '@rag/db'
import { retrieveJob } from '@rag/queue'
import type { QuestionOptions } from './question-options.ts'

export { QUESTION_STATUSES, type QuestionStatus }
export const isFinished = (status: QuestionStatus) => status === 'done' || status === 'failed'

export interface QuestionSource {
  /** The answer's [n] marker for this passage. */
  rank: number
  /** guide.pdf:p3, faq.csv:r12, setup.md#pairing */
  sourceId: string
  documentId: string
  title: string
  /** Evidence 0..1 that this passage answers the question: reranker relevance, else term coverage. */
  score: number
  /** The retriever's own score (fused RRF, BM25 or cosine), for ordering diagnostics. */
  retrievalScore: number
  text: string
  parentText: string
  heading: string | null
  chunkId: string
}

export interface Citation {
  marker: number
  sourceId: string
  /** For an extractive answer: the pieces of the passage's text it was taken from. */
  quotes?: string[]
}

export interface QuestionUsage {
  promptTokens: number
  completionTokens: number
}

/** An earlier turn a question follows: what was asked, what retrieval searched for, what was answered. */
export interface ConversationTurn {
  question: string
  searchQuery: string | null
  answer: string
}

export interface QuestionRecord {
  id: string
  question: string
  /** The thread it belongs to (null: asked alone, or through the OpenAI-style API). */
  conversationId: string | null
  /** The turns it follows, oldest first. */
  history: ConversationTurn[]
  /** What retrieval searched for when the question was a follow-up rewritten to stand alone. */
  searchQuery: string | null
  options: QuestionOptions
  status: QuestionStatus
  answer: string | null
  refused: boolean | null
  sources: QuestionSource[]
  citations: Citation[]
  degraded: string[]
  /** Milliseconds per stage (retrieveMs, rerankMs, generateMs…) and end to end (totalMs). */
  timings: Record<string, number>
  usage: QuestionUsage | null
  error: string | null
  /** RAG-Fusion rephrasings (null until written). */
  queries: string[] | null
  createdAt: string
  updatedAt: string
  expiresAt: string
}

const COLUMNS = `id::text, question, conversation_id::text AS "conversationId", history, search_query AS "searchQuery",
  options, status, answer, refused, sources, citations, degraded, timings, usage, error, queries,
  created_at AS "createdAt", updated_at AS "updatedAt", expires_at AS "expiresAt"`

export interface NewQuestion {
  id: string
  question: string
  options: QuestionOptions
  ttlSeconds: number
  /** A turn of this thread: kept as long as the thread is. */
  conversationId?: string
  history?: ConversationTurn[]
}

export async function createQuestion(
  pool: Pool,
  { id, question, options, ttlSeconds, conversationId, history = [] }: NewQuestion,
): Promise<void> {
  // Its first job is recorded with it, so a question whose enqueue never reached Redis is still run.
  const firstJob = { queue: retrieveJob.name, payload: { questionId: id, fused: false } }
  await pool.query(
    `INSERT INTO question_jobs (id, question, options, expires_at, next_job, conversation_id, history)
     VALUES ($1, $2, $3, CASE WHEN $6::uuid IS NULL THEN now() + make_interval(secs => $4) ELSE 'infinity' END,
             $5, $6, $7)
     ON CONFLICT (id) DO NOTHING`,
    [
      id,
      question,
      JSON.stringify(options),
      ttlSeconds,
      JSON.stringify(firstJob),
      conversationId ?? null,
      JSON.stringify(history),
    ],
  )
}

/** The question, unless it has expired (then it is as good as gone). */
export async function readQuestion(pool: Pool, id: string): Promise<QuestionRecord | null> {
  const { rows } = await pool.query<QuestionRecord>(
    `SELECT ${COLUMNS} FROM question_jobs WHERE id = $1 AND expires_at > now()`,
    [id],
  )
  return rows[0] ?? null
}

export interface QuestionPatch {
  sources?: QuestionSource[]
  /** Added to what is already degraded. */
  degraded?: string[]
  /** Merged into the stored timings. */
  timings?: Record<string, number>
  queries?: string[]
  answer?: string | null
  refused?: boolean
  citations?: Citation[]
  usage?: QuestionUsage
  error?: string
  searchQuery?: string
}

/**
 * Moves an unfinished question to `status` with the patch applied. Returns false (and changes
 * nothing) when it is already done or failed, so a retried or duplicated stage cannot reopen it.
 */
export async function updateQuestion(
  pool: Pool,
  id: string,
  status: QuestionStatus,
  patch: QuestionPatch = {},
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE question_jobs SET
        status = $2,
        sources = coalesce($3::jsonb, sources),
        degraded = ARRAY(SELECT DISTINCT d FROM unnest(degraded || $4::text[]) AS d ORDER BY d),
        timings = timings || $5::jsonb || CASE WHEN $2 IN ('done', 'failed')
          THEN jsonb_build_object('totalMs', round(extract(epoch FROM clock_timestamp() - created_at) * 1000))
          ELSE '{}'::jsonb END,
        queries = coalesce($6::text[], queries),
        answer = CASE WHEN $7::boolean THEN $8 ELSE answer END,
        refused = coalesce($9, refused),
        citations = coalesce($10::jsonb, citations),
        usage = coalesce($11::jsonb, usage),
        error = coalesce($12, error),
        search_query = coalesce($13, search_query),
        updated_at = now()
      WHERE id = $1 AND status NOT IN ('done', 'failed')`,
    [
      id,
      status,
      patch.sources ? JSON.stringify(patch.sources) : null,
      patch.degraded ?? [],
      JSON.stringify(patch.timings ?? {}),
      patch.queries ?? null,
      patch.answer !== undefined,
      patch.answer ?? null,
      patch.refused ?? null,
      patch.citations ? JSON.stringify(patch.citations) : null,
      patch.usage ? JSON.stringify(patch.usage) : null,
      patch.error ?? null,
      patch.searchQuery ?? null,
    ],
  )
  return (rowCount ?? 0) > 0
}

/** Marks the progress of a long stage (token streaming) so the stall sweeper leaves it alone. */
export async function touchQuestion(pool: Pool, id: string): Promise<void> {
  await pool.query(
    `UPDATE question_jobs SET updated_at = now() WHERE id = $1 AND status NOT IN ('done', 'failed')`,
    [id],
  )
}

/**
 * Fails questions that made no progress for timeoutSeconds (every worker of a stage gone, or a job
 * lost with Redis), naming the stage, so no client polls a question that will never finish.
 */
export async function failStalledQuestions(
  pool: Pool,
  timeoutSeconds: number,
  /** Only this question (a client looking at it); all of them when absent. */
  onlyId?: string,
): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>(
    `UPDATE question_jobs
        SET status = 'failed', updated_at = now(),
            error = format('no progress for %s s while %s (is the %s worker running?)', $1::int, status,
                           CASE status WHEN 'reranking' THEN 'rerank' WHEN 'generating' THEN 'LLM' ELSE 'retrieve' END)
      WHERE status NOT IN ('done', 'failed') AND updated_at < now() - make_interval(secs => $1)
        AND ($2::uuid IS NULL OR id = $2)
      RETURNING id::text`,
    [timeoutSeconds, onlyId ?? null],
  )
  return rows.map((row) => row.id)
}

export async function deleteExpiredQuestions(pool: Pool): Promise<number> {
  const { rowCount } = await pool.query('DELETE FROM question_jobs WHERE expires_at <= now()')
  return rowCount ?? 0
}

import {
  type AnswerType,
  FINISHED_QUESTION_STATUSES,
  isQuestionFinished,
  QUESTION_STATUSES,
  type QuestionStatus,
  type RefusalDecider,
  type Retriever,
} from '@rag/api-contract/enums'
import { type Pool, sqlList } from '@rag/db'
import type { AnswerabilitySignals, TextRegion } from '@rag/retrieval'
import type { QuestionOptions } from './question-options.ts'

export { QUESTION_STATUSES, type QuestionStatus }
/** Done or failed: the contract's finished states. */
export const isFinished = isQuestionFinished
/** The finished states as SQL constants (the unfinished questions' partial index names them). */
export const FINISHED = sqlList(FINISHED_QUESTION_STATUSES)

/** The judgement of whether the passages answer: a probability and what it was read from. */
export interface Answerability {
  /** The fitted judgement over the word signals (answerability-model.json), 0..1. */
  probability: number
  signals: AnswerabilitySignals
  /**
   * What decided whether to answer: the judgement over the words (REFUSAL_THRESHOLD) or the
   * reranker (RERANK_REFUSAL_THRESHOLD: asked for, or judging the passages the embedder found
   * after the words said no). Absent in answers stored before it was recorded.
   */
  decidedBy?: RefusalDecider
  /** The reranker's best probability over the passages the embedder found, when it judged them. */
  rerankerProbability?: number
  /** Judged by the collection's own calibration (`rag calibrate`), not the shipped model. */
  calibrated?: boolean
  /** The signals that weighed most toward what the words decided, strongest first. */
  deciding?: string[]
  /** What the deciding number (probability or reranker probability) was held against. */
  threshold?: number
}

export interface QuestionSource {
  /** The answer's [n] marker for this passage. */
  rank: number
  /** guide.pdf:p3, faq.csv:r12, setup.md#pairing */
  sourceId: string
  documentId: string
  title: string
  /** The document's collection (absent from answers stored before it was recorded). */
  collection?: string
  /** Evidence 0..1 that this passage answers the question: reranker relevance, else term coverage. */
  score: number
  /** The retriever's own score (fused RRF, BM25 or cosine), for ordering diagnostics. */
  retrievalScore: number
  text: string
  parentText: string
  heading: string | null
  chunkId: string
  /** The retrievers that found it (absent from answers stored before it was recorded). */
  foundBy?: Retriever[]
  /** Where it stands on its pages (absent for formats without pages, and from older answers). */
  regions?: TextRegion[]
  /** The lines of a text file it stands in (Markdown, plain text; absent for others). */
  lines?: { from: number; to: number }
  /** Why it was found, in a reader's terms (absent from answers stored before it was recorded). */
  why?: SourceWhy
}

/** Why a passage was found: the question's words it says, and where each ranking put it. */
export interface SourceWhy {
  /** The passage's own words for the question's words. */
  words: string[]
  /** Its words that say a question's word another way (a synonym), and for which. */
  synonyms: { said: string; for: string }[]
  /** 1-based places in the keyword and vector rankings that held it, and in the fused one. */
  keywordRank?: number
  vectorRank?: number
  fusedRank?: number
  /** The reranker's probability that it answers, when a reranker judged it. */
  rerankerProbability?: number
}

export interface Citation {
  marker: number
  sourceId: string
  /** For an extractive answer: the pieces of the passage's text it was taken from. */
  quotes?: string[]
  /** For an extractive answer: its short answer (a number with its unit, a date, a name, はい/いいえ). */
  span?: string
  /** The kind of answer the span is (the kind the question asks for). */
  spanType?: AnswerType
}

export interface QuestionUsage {
  promptTokens: number
  completionTokens: number
  /** The answer stopped at the output cap (the request's max_tokens or the server's), not by itself. */
  stoppedAtCap?: boolean
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
  /** The answer is the extractive stand-in the generated one will replace (shown at once, marked). */
  provisional: boolean
  refused: boolean | null
  /** How likely the passages answer it, and the signals that said so (null before retrieval). */
  answerability: Answerability | null
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

/** The record's columns, read from the row named `q`. */
const COLUMNS = `q.id::text, q.question, q.conversation_id::text AS "conversationId", q.history,
  q.search_query AS "searchQuery", q.options, q.status, q.answer, q.provisional, q.refused, q.answerability, q.sources, q.citations,
  q.degraded, q.timings, q.usage, q.error, q.queries,
  q.created_at AS "createdAt", q.updated_at AS "updatedAt", q.expires_at AS "expiresAt"`

export interface NewQuestion {
  id: string
  question: string
  options: QuestionOptions
  ttlSeconds: number
  /** A turn of this thread: kept as long as the thread is. */
  conversationId?: string
  history?: ConversationTurn[]
  /** Whose it is (a fingerprint of the key that asked): only they read or cancel it. */
  owner?: string
}

/** Records a new question (a duplicate id changes nothing) and returns where it stands. */
export async function createQuestion(
  pool: Pool,
  { id, question, options, ttlSeconds, conversationId, history = [], owner }: NewQuestion,
): Promise<QuestionMove['question']> {
  const { rows } = await pool.query<QuestionMove['question']>(
    `INSERT INTO questions AS q (id, question, options, expires_at, conversation_id, history, owner)
     VALUES ($1, $2, $3, CASE WHEN $5::uuid IS NULL THEN now() + make_interval(secs => $4) ELSE 'infinity' END,
             $5, $6, $7)
     ON CONFLICT (id) DO NOTHING
     RETURNING ${ROUTE_COLUMNS}`,
    [
      id,
      question,
      JSON.stringify(options),
      ttlSeconds,
      conversationId ?? null,
      JSON.stringify(history),
      owner ?? null,
    ],
  )
  const created = rows[0] ?? (await readQuestion(pool, id))
  if (!created) throw new Error(`question ${id} was not recorded`)
  return created
}

/**
 * The question, unless it has expired (then it is as good as gone), or is someone else's when an
 * owner is given (then, to them, it does not exist).
 */
export async function readQuestion(
  pool: Pool,
  id: string,
  { owner }: { owner?: string } = {},
): Promise<QuestionRecord | null> {
  const { rows } = await pool.query<QuestionRecord>(
    `SELECT ${COLUMNS} FROM questions q
      WHERE q.id = $1 AND q.expires_at > now() AND ($2::text IS NULL OR q.owner IS NULL OR q.owner = $2)`,
    [id, owner ?? null],
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
  provisional?: boolean
  refused?: boolean
  answerability?: Answerability
  citations?: Citation[]
  usage?: QuestionUsage
  error?: string
  searchQuery?: string
}

/** What the route (question-route.ts) reads of a question. */
export type RoutedQuestion = Pick<
  QuestionRecord,
  'status' | 'history' | 'searchQuery' | 'queries' | 'options'
>

/** What a move did: where the question now stands (what its route reads), and the status it had before. */
export interface QuestionMove {
  question: RoutedQuestion & { id: string }
  previousStatus: QuestionStatus
}

/** The columns the route reads, from the row named `q` (a move returns only these: sources stay in Postgres). */
const ROUTE_COLUMNS = `q.id::text, q.status, q.history, q.search_query AS "searchQuery", q.queries, q.options`

/**
 * Moves an unfinished question to `status` with the patch applied, returning where it now stands
 * with the status it had. Returns null (and changes nothing) when it is already done or failed, so
 * a retried or duplicated stage cannot reopen it.
 */
export async function updateQuestion(
  pool: Pool,
  id: string,
  status: QuestionStatus,
  patch: QuestionPatch = {},
): Promise<QuestionMove | null> {
  const { rows } = await pool.query<QuestionMove['question'] & { previousStatus: QuestionStatus }>(
    `WITH before AS (SELECT id, status FROM questions WHERE id = $1 FOR UPDATE)
     UPDATE questions q SET
        status = $2,
        sources = coalesce($3::jsonb, q.sources),
        degraded = ARRAY(SELECT DISTINCT d FROM unnest(q.degraded || $4::text[]) AS d ORDER BY d),
        timings = q.timings || $5::jsonb || CASE WHEN $2 IN (${FINISHED})
          THEN jsonb_build_object('totalMs', round(extract(epoch FROM clock_timestamp() - q.created_at) * 1000))
          ELSE '{}'::jsonb END,
        queries = coalesce($6::text[], q.queries),
        answer = CASE WHEN $7::boolean THEN $8 ELSE q.answer END,
        refused = coalesce($9, q.refused),
        citations = coalesce($10::jsonb, q.citations),
        usage = coalesce($11::jsonb, q.usage),
        error = coalesce($12, q.error),
        search_query = coalesce($13, q.search_query),
        provisional = coalesce($14, q.provisional),
        answerability = coalesce($15::jsonb, q.answerability),
        updated_at = now()
       FROM before
      WHERE q.id = before.id AND before.status NOT IN (${FINISHED})
      RETURNING ${ROUTE_COLUMNS}, before.status AS "previousStatus"`,
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
      patch.provisional ?? null,
      patch.answerability ? JSON.stringify(patch.answerability) : null,
    ],
  )
  const row = rows[0]
  if (!row) return null
  const { previousStatus, ...question } = row
  return { question, previousStatus }
}

/**
 * Marks the progress of a long stage (an answer being written) so the stall sweeper leaves it
 * alone; false when the question has ended meanwhile (cancelled): the stage should stop.
 */
export async function touchQuestion(pool: Pool, id: string): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE questions SET updated_at = now() WHERE id = $1 AND status NOT IN (${FINISHED})`,
    [id],
  )
  return (rowCount ?? 0) > 0
}

export async function deleteExpiredQuestions(pool: Pool): Promise<number> {
  const { rowCount } = await pool.query('DELETE FROM questions WHERE expires_at <= now()')
  return rowCount ?? 0
}

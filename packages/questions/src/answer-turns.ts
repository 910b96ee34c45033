import type { Pool } from '@rag/db'
import { generateJob, LOWEST_PRIORITY, type Producer } from '@rag/queue'
import type { QuestionOptions } from './question-options.ts'

/**
 * The LLM is shared fairly between askers: one asker's answers are handed to it one at a time (the
 * next when the last ends), so a burst of ten questions from one key holds one place in the LLM's
 * line, and a colleague's single question is taken at its next free sequence instead of after all
 * ten. The answer handed over holds its asker's turn (llm_turn) until it ends; the rest wait in
 * Postgres (status generating, no job yet) and take the turn in the order they were asked.
 * Questions without an asker (the evaluation) are one asker. Derived from stored state only, so the
 * reconciler hands on exactly what a stage would.
 */
const SAME_ASKER_EARLIER = `SELECT count(*)::int AS n FROM questions o JOIN questions q ON q.id = $1
  WHERE o.status = 'generating' AND o.owner IS NOT DISTINCT FROM q.owner AND o.id <> q.id
    AND (o.created_at, o.id) < (q.created_at, q.id) AND o.expires_at > now()`

/**
 * Takes its asker's turn for this question's answer, if nobody holds it: true when it now holds it
 * (or already did), false when another answer of the same asker does. The turn is one per asker
 * by a unique index (migration 0020), so stages handing on at once cannot both take it.
 */
export async function takeAnswerTurn(pool: Pick<Pool, 'query'>, questionId: string): Promise<boolean> {
  try {
    const { rowCount } = await pool.query(
      "UPDATE questions SET llm_turn = true WHERE id = $1 AND status = 'generating'",
      [questionId],
    )
    return (rowCount ?? 0) > 0
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false
    throw error
  }
}

const UNIQUE_VIOLATION = '23505'

/** How many of the same asker's answers are before this one (waiting or being written). */
export async function earlierAnswersOfAsker(pool: Pick<Pool, 'query'>, questionId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(SAME_ASKER_EARLIER, [questionId])
  return rows[0]?.n ?? 0
}

/**
 * The answer of the same asker as this question that comes next (one of theirs ended): the one
 * holding the turn if any (a retry, a yield), else the earliest asked waiting one; or null.
 */
export async function nextAnswerOfAsker(
  pool: Pick<Pool, 'query'>,
  questionId: string,
): Promise<string | null> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT o.id::text FROM questions o JOIN questions q ON q.id = $1
      WHERE o.status = 'generating' AND o.owner IS NOT DISTINCT FROM q.owner AND o.expires_at > now()
      ORDER BY o.llm_turn DESC, o.created_at, o.id LIMIT 1`,
    [questionId],
  )
  return rows[0]?.id ?? null
}

/**
 * Where an answer job stands in the LLM's line: people asking before the evaluation and other
 * batch work (`options.batch`); among either, first come first served.
 */
export const answerPriority = (options: Pick<QuestionOptions, 'batch'>) =>
  options.batch ? LOWEST_PRIORITY : 1

/**
 * Whether the answer being written should give its place to another asker's: its own asker has
 * more answers waiting (a burst), and the next job in the LLM's line is the answer of an asker
 * with no other (one person asking), of the same or a higher priority. So a person asking behind
 * another key's burst waits for the LLM to read their passages, not for the burst's current answer
 * to end; a lone asker's answer is never interrupted; two bursts take turns answer by answer. The
 * answer given up is written again from its start (the cost of the burst, not of the person).
 */
export async function shouldYieldAnswer(
  deps: { pool: Pick<Pool, 'query'>; producer: Pick<Producer, 'queues'> },
  question: { id: string; options: Pick<QuestionOptions, 'batch'> },
): Promise<boolean> {
  const queue = deps.producer.queues.get(generateJob.name)
  if (!queue) return false
  const [next] = [...(await queue.getWaiting(0, 0)), ...(await queue.getPrioritized(0, 0))]
  if (next?.data?.task !== 'answer' || next.data.questionId === question.id) return false
  if ((next.opts.priority ?? 0) > answerPriority(question.options)) return false
  const { rows } = await deps.pool.query<{ burst: boolean; lone: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM questions o WHERE o.status = 'generating' AND o.id <> q.id
                      AND o.owner IS NOT DISTINCT FROM q.owner AND o.expires_at > now()) AS burst,
            w.owner IS DISTINCT FROM q.owner
              AND NOT EXISTS (SELECT 1 FROM questions o WHERE o.status = 'generating' AND o.id <> w.id
                                AND o.owner IS NOT DISTINCT FROM w.owner AND o.expires_at > now()) AS lone
       FROM questions q, questions w WHERE q.id = $1 AND w.id = $2`,
    [question.id, next.data.questionId],
  )
  return rows[0]?.burst === true && rows[0]?.lone === true
}

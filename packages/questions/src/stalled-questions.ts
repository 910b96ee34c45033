import type { Pool } from '@rag/db'
import { nextStep, QUESTION_STEPS } from './question-route.ts'
import { FINISHED, type RoutedQuestion } from './question-store.ts'

/**
 * Fails questions that made no progress of their own for timeoutSeconds (every worker of a stage
 * gone, or a job lost with Redis), naming the worker their next step waits for, so no client polls
 * a question that will never finish. Waiting in line is not a lack of progress (`waitsItsTurn`).
 */
export async function failStalledQuestions(
  pool: Pool,
  timeoutSeconds: number,
  /** Only this question (a client looking at it); all of them when absent. */
  onlyId?: string,
  /**
   * A question whose job waits its turn in a served queue is not stalled (it is in line), nor one
   * whose job was taken up less than the limit ago (its handler has yet to mark it as moving).
   */
  waitsItsTurn: (
    question: RoutedQuestion & { id: string },
    limitSeconds: number,
  ) => Promise<boolean> = async () => false,
): Promise<string[]> {
  const { rows } = await pool.query<RoutedQuestion & { id: string; provisional: boolean }>(
    `SELECT q.id::text, q.status, q.history, q.search_query AS "searchQuery", q.queries, q.options, q.provisional
       FROM questions q
      WHERE q.status NOT IN (${FINISHED}) AND q.updated_at < now() - make_interval(secs => $1)
        AND ($2::uuid IS NULL OR q.id = $2)`,
    [timeoutSeconds, onlyId ?? null],
  )
  const failed: string[] = []
  for (const question of rows) {
    if (await waitsItsTurn(question, timeoutSeconds).catch(() => false)) continue
    const step = nextStep(question)
    const worker = step ? QUESTION_STEPS[step].worker : 'retrieve'
    const why = `no progress for ${timeoutSeconds} s while ${question.status} (is the ${worker} worker running?)`
    // An extractive answer already stands (the LLM's was being written): it stays the answer.
    const { rowCount } = await pool.query(
      `UPDATE questions SET updated_at = now(),
          status = CASE WHEN provisional AND answer IS NOT NULL THEN 'done' ELSE 'failed' END,
          error = CASE WHEN provisional AND answer IS NOT NULL THEN $3 || '; the extractive answer stands' ELSE $3 END,
          degraded = CASE WHEN provisional AND answer IS NOT NULL
                          THEN ARRAY(SELECT DISTINCT d FROM unnest(degraded || '{generate}'::text[]) AS d ORDER BY d)
                          ELSE degraded END,
          provisional = false
        WHERE id = $1 AND status NOT IN (${FINISHED}) AND updated_at < now() - make_interval(secs => $2)`,
      [question.id, timeoutSeconds, why],
    )
    if (rowCount) failed.push(question.id)
  }
  return failed
}

import type { Pool } from '@rag/db'

/** A question's next job as Postgres keeps it, so it can be enqueued again if Redis loses it. */
export interface NextJob {
  queue: string
  payload: Record<string, unknown>
}

export async function recordNextJob(pool: Pool, questionId: string, next: NextJob): Promise<void> {
  await pool.query('UPDATE question_jobs SET next_job = $2 WHERE id = $1', [questionId, JSON.stringify(next)])
}

/** Unfinished, unexpired questions that have not moved for `staleAfterMs`, with the job they wait on. */
export async function stuckQuestions(
  pool: Pool,
  staleAfterMs: number,
): Promise<{ id: string; nextJob: NextJob }[]> {
  const { rows } = await pool.query<{ id: string; nextJob: NextJob }>(
    `SELECT id::text, next_job AS "nextJob" FROM question_jobs
      WHERE status NOT IN ('done', 'failed') AND next_job IS NOT NULL AND expires_at > now()
        AND updated_at < now() - make_interval(secs => $1)
      ORDER BY updated_at LIMIT 1000`,
    [staleAfterMs / 1000],
  )
  return rows
}

import type { Pool } from '@rag/db'
import type { JobDefinition, Producer } from '@rag/queue'
import type { z } from 'zod'

/** A question's next job as Postgres keeps it, so it can be enqueued again if Redis loses it. */
export interface NextJob {
  queue: string
  payload: Record<string, unknown>
}

/** Records the question's next job, then enqueues it (the record first: a lost enqueue is redone). */
export async function handOn<S extends z.ZodType>(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueue'> },
  questionId: string,
  definition: JobDefinition<S>,
  payload: z.input<S>,
): Promise<void> {
  const next: NextJob = { queue: definition.name, payload: payload as Record<string, unknown> }
  await deps.pool.query('UPDATE question_jobs SET next_job = $2 WHERE id = $1', [
    questionId,
    JSON.stringify(next),
  ])
  await deps.producer.enqueue(definition, payload)
}

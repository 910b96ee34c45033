import type { Pool } from '@rag/db'
import type { JobDefinition, Producer } from '@rag/queue'
import type { z } from 'zod'
import { recordNextJob } from '../question-next-jobs.ts'

/** Records the question's next job, then enqueues it (the record first: a lost enqueue is redone). */
export async function handOn<S extends z.ZodType>(
  deps: { pool: Pool; producer: Pick<Producer, 'enqueue'> },
  questionId: string,
  definition: JobDefinition<S>,
  payload: z.input<S>,
): Promise<void> {
  await recordNextJob(deps.pool, questionId, {
    queue: definition.name,
    payload: payload as Record<string, unknown>,
  })
  await deps.producer.enqueue(definition, payload)
}

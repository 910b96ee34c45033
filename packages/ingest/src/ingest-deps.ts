import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'

/**
 * Stages hand work on with `enqueueAgain`: a re-indexed document reuses its job ids, and the
 * finished jobs of its previous run must not swallow the new ones.
 */
export interface IngestDeps {
  pool: Pool
  producer: Pick<Producer, 'enqueue' | 'enqueueAgain' | 'finalFailure'>
  logger: Logger
}

import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import type { Producer } from '@rag/queue'

export interface IngestDeps {
  pool: Pool
  producer: Pick<Producer, 'enqueue' | 'enqueueAgain'>
  logger: Logger
}

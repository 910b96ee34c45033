import { type GenerationSection, generationDefaults, type RetrievalSection } from '@rag/config'
import type { Pool, ReadReplica } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { TextGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import { type Producer, type PublishQuestionEvent, questionEventPublisher } from '@rag/queue'
import type { Reranker } from '@rag/reranking'
import { type SynonymSource, synonymSource } from '@rag/retrieval'

/**
 * What a question process gives the steps: its connections, the settings (the process's own
 * sections, the defaults for the rest: a step reads only its own), and its models through
 * getters (null: off, unavailable, or not this process's model).
 */
export interface QuestionContext {
  pool: Pool
  /** A read replica for the searches (DATABASE_READ_URL); absent: they read the primary. */
  reads?: Pick<ReadReplica, 'choose'>
  producer: Pick<Producer, 'enqueue' | 'enqueueAgain' | 'finalFailure' | 'queues'>
  publish: PublishQuestionEvent
  logger: Logger
  retrieval: RetrievalSection
  generation: GenerationSection
  getEmbedder: () => Promise<Embedder | null>
  getReranker: () => Promise<Reranker | null>
  getGenerator: () => Promise<TextGenerator | null>
  /** Synonyms the question's words are searched and judged through (SYNONYMS; none when off). */
  synonyms: SynonymSource
}

/**
 * The context of a question worker process, from what its host gives it: its connections, its
 * config's sections (the defaults for those it does not read) and the model it serves.
 */
export function questionWorkerContext(
  worker: Pick<QuestionContext, 'pool' | 'logger'> & {
    producer: Producer
    config: { redis: { prefix: string }; retrieval: RetrievalSection; generation?: GenerationSection }
  },
  models: Partial<Pick<QuestionContext, 'getEmbedder' | 'getReranker' | 'getGenerator' | 'reads'>>,
): QuestionContext {
  const none = async () => null
  return {
    pool: worker.pool,
    ...(models.reads ? { reads: models.reads } : {}),
    producer: worker.producer,
    logger: worker.logger,
    publish: questionEventPublisher(worker.producer.redis, worker.config.redis.prefix),
    retrieval: worker.config.retrieval,
    generation: worker.config.generation ?? generationDefaults(),
    getEmbedder: models.getEmbedder ?? none,
    getReranker: models.getReranker ?? none,
    getGenerator: models.getGenerator ?? none,
    synonyms: synonymSource(worker.pool, worker.config.retrieval.synonyms),
  }
}

import type { GenerationSection, RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { TextGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import { type Producer, type PublishQuestionEvent, questionEventPublisher } from '@rag/queue'
import type { Reranker } from '@rag/reranking'

/** What every question stage works with; models come through getters (null: off or unavailable). */
export interface QuestionStageDeps {
  pool: Pool
  producer: Producer
  publish: PublishQuestionEvent
  logger: Logger
  retrieval: RetrievalSection
}

export interface RetrieveStageDeps extends QuestionStageDeps {
  getEmbedder: () => Promise<Embedder | null>
}

export interface RerankStageDeps extends QuestionStageDeps {
  getReranker: () => Promise<Reranker | null>
}

export interface GenerateStageDeps extends QuestionStageDeps {
  getGenerator: () => Promise<TextGenerator | null>
  generation: GenerationSection
}

/** The shared part of a question worker's dependencies, from what every worker process has. */
export function questionStageDeps(worker: {
  config: { redis: { prefix: string }; retrieval: RetrievalSection }
  pool: Pool
  producer: Producer
  logger: Logger
}): QuestionStageDeps {
  return {
    pool: worker.pool,
    producer: worker.producer,
    publish: questionEventPublisher(worker.producer.redis, worker.config.redis.prefix),
    logger: worker.logger,
    retrieval: worker.config.retrieval,
  }
}

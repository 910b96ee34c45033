import { type GenerationSection, generationDefaults, type RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { TextGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import {
  generateJob,
  type Producer,
  questionEventPublisher,
  rerankJob,
  retrieveJob,
  startWorker,
} from '@rag/queue'
import type { Reranker } from '@rag/reranking'
import { generateStage } from './stages/generate-stage.ts'
import { failQuestionOnFinalFailure } from './stages/question-progress.ts'
import { rerankStage } from './stages/rerank-stage.ts'
import { retrieveStage } from './stages/retrieve-stage.ts'

export interface QuestionWorkersOptions {
  pool: Pool
  producer: Producer
  logger: Logger
  redisUrl: string
  prefix: string
  retrieval: RetrievalSection
  generation?: GenerationSection
  embedder?: Embedder | null
  reranker?: Reranker | null
  generator?: TextGenerator | null
  concurrency?: number
  /** The job lock (JOB_LOCK_SECONDS); tests shorten it to show long inference keeps it renewed. */
  lockDurationMs?: number
}

/** The retrieve, rerank and LLM workers in this process (tests); production runs each in its own. */
export function startQuestionWorkers(options: QuestionWorkersOptions): ReturnType<typeof startWorker>[] {
  const { pool, producer, logger, redisUrl, prefix, retrieval, concurrency = 4, lockDurationMs } = options
  const deps = { pool, producer, logger, retrieval, publish: questionEventPublisher(producer.redis, prefix) }
  const common = { redisUrl, prefix, logger, concurrency, ...(lockDurationMs ? { lockDurationMs } : {}) }
  return [
    startWorker({
      ...common,
      definition: retrieveJob,
      handler: retrieveStage({ ...deps, getEmbedder: async () => options.embedder ?? null }),
      onFinalFailure: failQuestionOnFinalFailure(deps, 'retrieve'),
    }),
    startWorker({
      ...common,
      definition: rerankJob,
      handler: rerankStage({ ...deps, getReranker: async () => options.reranker ?? null }),
      onFinalFailure: failQuestionOnFinalFailure(deps, 'rerank'),
    }),
    startWorker({
      ...common,
      definition: generateJob,
      handler: generateStage({
        ...deps,
        getGenerator: async () => options.generator ?? null,
        generation: options.generation ?? generationDefaults(),
      }),
      onFinalFailure: failQuestionOnFinalFailure(deps, 'generate'),
    }),
  ]
}

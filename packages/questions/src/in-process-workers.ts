import { type GenerationSection, generationDefaults, type RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { TextGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import { type Producer, questionEventPublisher, startStepWorker, stepsOf } from '@rag/queue'
import type { Reranker } from '@rag/reranking'
import { synonymSource } from '@rag/retrieval'
import { questionPipeline } from './question-pipeline.ts'
import type { QuestionContext } from './stages/question-context.ts'

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
  /** A read replica for the searches (DATABASE_READ_URL). */
  reads?: QuestionContext['reads']
  /** The job lock (JOB_LOCK_SECONDS); tests shorten it to show long inference keeps it renewed. */
  lockDurationMs?: number
}

/** Every question step's worker in this process (tests, `pnpm eval`); production runs each in its own. */
export function startQuestionWorkers(options: QuestionWorkersOptions): ReturnType<typeof startStepWorker>[] {
  const { pool, producer, logger, redisUrl, prefix, concurrency = 4, lockDurationMs } = options
  const context: QuestionContext = {
    pool,
    producer,
    logger,
    publish: questionEventPublisher(producer.redis, prefix),
    retrieval: options.retrieval,
    generation: options.generation ?? generationDefaults(),
    getEmbedder: async () => options.embedder ?? null,
    getReranker: async () => options.reranker ?? null,
    getGenerator: async () => options.generator ?? null,
    synonyms: synonymSource(pool, options.retrieval.synonyms),
    ...(options.reads ? { reads: options.reads } : {}),
  }
  const common = { redisUrl, prefix, logger, concurrency, ...(lockDurationMs ? { lockDurationMs } : {}) }
  // The LLM's step takes LLM_CONCURRENCY at once, as the LLM worker does (one per context sequence).
  return stepsOf(questionPipeline).map((step) =>
    startStepWorker(step, context, {
      ...common,
      ...(step.job.name === questionPipeline.generate.job.name
        ? { concurrency: context.generation.concurrency }
        : {}),
    }),
  )
}

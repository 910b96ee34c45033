import type { ChunkingSection, GenerationSection, ModelsSection, RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { startIngestionWorkers } from '@rag/ingest'
import type { TextGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import { refusalThresholdFor, type ScoreScale, startQuestionWorkers } from '@rag/questions'
import type { Producer, QuestionEventSubscriber } from '@rag/queue'
import type { Reranker } from '@rag/reranking'
import { askQuestions } from './ask-questions.ts'
import { measureContext } from './context-recall.ts'
import type { Dataset } from './dataset.ts'
import type { EvalConfig } from './eval-configs.ts'
import { ingestCorpus } from './ingest-corpus.ts'
import type { EvaluationReport } from './report.ts'
import { fingerprintOf, sampleOf } from './sampling.ts'
import { scoreConfig } from './score-config.ts'

export interface EvaluationDeps {
  /** A pool on the evaluation's own schema: user collections are never touched. */
  pool: Pool
  producer: Producer
  questionEvents: QuestionEventSubscriber
  redisUrl: string
  prefix: string
  logger: Logger
  retrieval: RetrievalSection
  generation: GenerationSection
  models: ModelsSection
  chunking: ChunkingSection
  embedder: Embedder | null
  reranker: Reranker | null
  generator: TextGenerator | null
  uploadDir: string
}

export type EvalProgress = (phase: string, done: number, total: number) => void

/**
 * Sources each question returns. Metrics rank documents to depth 10; several passages of one
 * document collapse into one entry, so twice that many keep ten distinct documents in view.
 */
const TOP_K = 20

function modelsUsed(deps: EvaluationDeps, configs: EvalConfig[], configured: boolean) {
  if (configured)
    return { reranker: deps.models.reranker, llm: deps.models.llm, embedding: deps.models.embedding.model }
  const uses = (test: (config: EvalConfig) => boolean) => configs.some(test)
  return {
    reranker: deps.reranker && uses((c) => c.options.rerank === true) ? deps.models.reranker : null,
    llm:
      deps.generator && uses((c) => c.options.answer === 'generate' || c.options.fusion === true)
        ? deps.models.llm
        : null,
    embedding:
      deps.embedder && uses((c) => c.options.mode !== 'keyword') ? deps.models.embedding.model : null,
  }
}

/** The dataset's documents through the pipeline, with ingestion workers of its own for the while. */
async function ingestDataset(deps: EvaluationDeps, dataset: Dataset, onProgress: EvalProgress | undefined) {
  const ingestion = startIngestionWorkers({
    pool: deps.pool,
    producer: deps.producer,
    logger: deps.logger,
    redisUrl: deps.redisUrl,
    prefix: deps.prefix,
    embedder: deps.embedder,
    // The evaluated chunking; parsing limits and part size as any process gets them.
    settings: { chunking: deps.chunking },
  })
  try {
    return await ingestCorpus(deps, dataset, {
      uploadDir: deps.uploadDir,
      onProgress: (done, total) => onProgress?.('ingest', done, total),
    })
  } finally {
    await Promise.all(ingestion.map((worker) => worker.close()))
  }
}

/**
 * Ingests the corpus through the pipeline (reused when unchanged), then asks every question
 * through the question path once per config, and scores each config.
 */
export async function runEvaluation(
  deps: EvaluationDeps,
  dataset: Dataset,
  configs: EvalConfig[],
  {
    limit,
    sample,
    concurrency = 4,
    onProgress,
    contextBudgets,
    live,
  }: {
    /**
     * A live collection (`pnpm eval --collection`, or a run from the web app): nothing is ingested,
     * the questions search that collection only; `ownWorkers` false asks through the question
     * workers already running (the configs' retrieval overrides then do not apply).
     */
    live?: { collection: string; documents: Map<string, string>; ownWorkers: boolean }
    /** Context budgets measured (tokens; 0 = whole passages): CONTEXT_TOKENS and whole passages by default. */
    contextBudgets?: number[]
    limit?: number
    sample?: { size: number; seed: number }
    concurrency?: number
    onProgress?: EvalProgress
  } = {},
): Promise<EvaluationReport> {
  const limited = limit ? dataset.questions.slice(0, limit) : dataset.questions
  const questions = sample ? sampleOf(limited, sample.size, sample.seed) : limited
  const started = performance.now()
  const corpus = live
    ? { documents: live.documents, failed: [], reused: true }
    : await ingestDataset(deps, dataset, onProgress)
  const ingestSeconds = (performance.now() - started) / 1000

  const settings: EvaluationReport['settings'] = {
    chunkSize: deps.chunking.size,
    chunkOverlap: deps.chunking.overlap,
    parentMaxChars: deps.chunking.parentMaxChars,
    topK: TOP_K,
    searchK: deps.retrieval.searchK,
    rerankTopK: deps.retrieval.rerankTopK,
    // The models the figures came from: loaded, and used by a config run (a model configured but
    // unreachable, or one no config needs, changes no figure and so no comparison with a baseline).
    // Asked of the platform's workers, the models they are configured with.
    ...modelsUsed(deps, configs, live?.ownWorkers === false),
    refusalThreshold: deps.retrieval.refusalThreshold,
    rerankRefusalThreshold: deps.retrieval.rerankRefusalThreshold,
  }
  const datasetPrint = fingerprintOf({
    name: dataset.name,
    documents: dataset.documents.map((document) => document.docId).sort(),
    questions: questions.map((question) => [question.id, question.gold]),
  })
  const results = []
  for (const config of configs) {
    const retrieval = { ...deps.retrieval, ...config.retrieval }
    const workers =
      live?.ownWorkers === false
        ? []
        : startQuestionWorkers({ ...deps, retrieval, generation: deps.generation, concurrency })
    try {
      const records = await askQuestions(
        { ...deps, retrieval },
        questions,
        { ...config.options, topK: TOP_K, ...(live ? { collection: live.collection } : {}) },
        { onProgress: (done) => onProgress?.(config.name, done, questions.length) },
      )
      // Reranked configs are judged on the reranker's probability, the others on the fitted
      // judgement's (refusal-decision.ts).
      const scale: ScoreScale = config.options.rerank && deps.models.reranker ? 'reranker' : 'evidence'
      const options = { ...config.options, overrides: config.retrieval }
      const scored = scoreConfig(config.name, questions, records, corpus.documents, {
        threshold: refusalThresholdFor(retrieval, scale),
        scale,
        thresholds: retrieval,
      })
      // What an LLM would read of the passages, under each context budget (model-free).
      const budgets = contextBudgets ?? [deps.generation.contextTokens, 0]
      const context = await measureContext(
        deps.pool,
        questions,
        records,
        budgets,
        {
          contextSize: deps.generation.contextSize,
          maxTokens: deps.generation.maxTokens,
          topK: retrieval.rerankTopK,
        },
        (done, total) => onProgress?.(`${config.name} context`, done, total),
      )
      const byBudget = (budget: number) => context.measures.find((measure) => measure.budget === budget)
      const configured = byBudget(deps.generation.contextTokens)
      const whole = byBudget(0)
      if (configured && configured.questions > 0) {
        scored.metrics.contextRecall = configured.recall
        scored.metrics['contextTokens.p50'] = configured.tokensP50
        scored.metrics['contextTokens.p95'] = configured.tokensP95
      }
      if (whole && whole.questions > 0 && deps.generation.contextTokens !== 0) {
        scored.metrics['wholePassages.contextRecall'] = whole.recall
        scored.metrics['wholePassages.contextTokens.p50'] = whole.tokensP50
        scored.metrics['wholePassages.contextTokens.p95'] = whole.tokensP95
      }
      // At the budget the product uses (CONTEXT_TOKENS), whichever budgets were asked for.
      const used = budgets.indexOf(deps.generation.contextTokens)
      for (const outcome of scored.questions) {
        const marks = context.hits.get(outcome.id)
        if (marks) outcome.contextHasAnswer = used >= 0 ? (marks[used] ?? null) : null
      }
      results.push({
        ...scored,
        context: context.measures,
        options,
        fingerprint: fingerprintOf({ dataset: datasetPrint, settings, config: config.name, options }),
      })
    } finally {
      await Promise.all(workers.map((worker) => worker.close()))
    }
  }
  return {
    dataset: {
      name: dataset.name,
      format: dataset.format,
      documents: dataset.documents.length,
      questions: questions.length,
      answerable: questions.filter((q) => q.gold !== null).length,
    },
    fingerprint: datasetPrint,
    settings,
    ingest: { seconds: ingestSeconds, failed: corpus.failed, reused: corpus.reused },
    configs: results,
  }
}

import { randomUUID } from 'node:crypto'
import { collectionDataset } from './collection-dataset.ts'
import type { EvalConfig } from './eval-configs.ts'
import type { EvaluationReport } from './report.ts'
import { type EvalProgress, type EvaluationDeps, runEvaluation } from './run-evaluation.ts'
import { failRun, finishRun, runProgress, startRun } from './run-store.ts'

export interface CollectionRunRequest {
  collection: string
  configs: EvalConfig[]
  startedBy: string
  /** Own question workers (`pnpm eval`), or the ones the platform runs (a run from the web app). */
  ownWorkers: boolean
  /** Kept for the Evaluation view (`--save`; always from the web app). */
  keep: boolean
}

/** What a run from the gateway needs: the database, the queues, and the settings it reports. */
export type LiveEvaluationDeps = Pick<
  EvaluationDeps,
  'pool' | 'producer' | 'questionEvents' | 'logger' | 'retrieval' | 'generation' | 'models' | 'chunking'
>

/** Progress written to the run at most this often: a sign of life, not a write per question. */
const PROGRESS_EVERY_MS = 2000

/**
 * Runs a collection's evaluation set against the collection as it is, keeping the run (its
 * report, and every question's outcome for the drill-down) for the Evaluation view.
 */
export async function runCollectionEvaluation(
  deps: EvaluationDeps,
  request: CollectionRunRequest,
  { runId = randomUUID(), onProgress }: { runId?: string; onProgress?: EvalProgress } = {},
): Promise<{ runId: string; report: EvaluationReport }> {
  const prepared = await prepareRun(deps, request, runId)
  return { runId, report: await prepared.run(onProgress) }
}

/**
 * Starts a collection's evaluation and returns its run id once the run is recorded; the questions
 * are asked and the run kept in the background (a failure is recorded on the run, with why).
 */
export async function startCollectionEvaluation(
  live: LiveEvaluationDeps,
  request: Omit<CollectionRunRequest, 'ownWorkers' | 'keep'>,
): Promise<{ runId: string; finished: Promise<void> }> {
  const runId = randomUUID()
  // The platform's running workers answer: nothing of a worker's own is loaded here.
  const deps: EvaluationDeps = {
    ...live,
    redisUrl: '',
    prefix: '',
    embedder: null,
    reranker: null,
    generator: null,
    uploadDir: '',
  }
  const prepared = await prepareRun(deps, { ...request, ownWorkers: false, keep: true }, runId)
  const finished = prepared.run().then(
    () => undefined,
    (error: unknown) => deps.logger.warn({ err: error, runId }, 'evaluation run failed'),
  )
  return { runId, finished }
}

async function prepareRun(deps: EvaluationDeps, request: CollectionRunRequest, runId: string) {
  const { dataset, documents } = await collectionDataset(deps.pool, request.collection)
  const total = dataset.questions.length * request.configs.length
  if (request.keep)
    await startRun(deps.pool, {
      id: runId,
      collection: request.collection,
      dataset: dataset.name,
      total,
      startedBy: request.startedBy,
    })
  let written = 0
  const finished: Record<string, number> = {}
  const progress = (phase: string, done: number) => {
    finished[phase] = done
    const now = Date.now()
    if (!request.keep || now - written < PROGRESS_EVERY_MS) return
    written = now
    const sum = Object.values(finished).reduce((a, b) => a + b, 0)
    runProgress(deps.pool, runId, Math.min(sum, total), total).catch(() => {})
  }
  return {
    run: async (onProgress?: EvalProgress) => {
      try {
        const report = await runEvaluation(deps, dataset, request.configs, {
          live: { collection: request.collection, documents, ownWorkers: request.ownWorkers },
          onProgress: (phase, done, of) => {
            if (request.configs.some((config) => config.name === phase)) progress(phase, done)
            onProgress?.(phase, done, of)
          },
        })
        if (request.keep) await finishRun(deps.pool, runId, report)
        return report
      } catch (error) {
        if (request.keep)
          await failRun(deps.pool, runId, error instanceof Error ? error.message : String(error))
        throw error
      }
    },
  }
}

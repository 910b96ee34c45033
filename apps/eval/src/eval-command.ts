import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import type { EvalConfig as EvalProcessConfig } from '@rag/config'
import { openDatabase } from '@rag/db'
import { embedderProvider } from '@rag/embeddings'
import {
  compareWithBaseline,
  DatasetError,
  type DatasetFormat,
  type EvalConfig,
  type EvalProgress,
  type EvaluationDeps,
  type EvaluationReport,
  finishRun,
  loadDataset,
  parseConfigs,
  renderTable,
  runCollectionEvaluation,
  runEvaluation,
  startRun,
  withGoldRemoved,
} from '@rag/evaluation'
import { llmProvider } from '@rag/llm'
import type { Logger } from '@rag/log'
import { createProducer, createQuestionEventSubscriber } from '@rag/queue'
import { rerankerProvider } from '@rag/reranking'
import { readBaseline, writeHtmlReport, writeReport } from './eval-output.ts'
import { dropOldEvalSchemas, evalSchemaOf, markEvalSchemaUsed } from './eval-schema.ts'

export interface EvalArgs {
  /** A dataset to ingest into an evaluation schema of its own, or… */
  dataset?: string
  /** …a live collection, whose evaluation set (its cases) is run against it as it is. */
  collection?: string
  /** Keep the run in the database for the Evaluation view. */
  save?: boolean
  /** Also write the report as one self-contained HTML file here. */
  html?: string
  format: DatasetFormat | 'auto'
  docs?: string
  configs: string
  limit?: number
  out: string
  baseline?: string
  maxDrop: number
  /** Share of answering documents taken out of the corpus (refusal calibration). */
  withoutGold?: number
  /** Questions drawn over the whole dataset instead of the first --limit. */
  sample?: { size: number; seed: number }
  /** Seeds the random choices: the sample, and which answering documents --without-gold takes out. */
  seed?: number
  /** Questions in flight at once. */
  concurrency?: number
  /** Context budgets whose recall is measured (tokens; 0 = whole passages). */
  contextBudgets?: number[]
  /** Evaluation schemas kept (the most recently used); older ones are dropped. */
  keepSchemas?: number
}

/**
 * `pnpm eval`: load the dataset, ingest it through the pipeline into its own schema, ask every
 * question once per config, print and write the report. 0 = done (and no regression against the
 * baseline), 1 = a metric fell more than --max-drop, 2 = bad input.
 */
export async function runEvalCommand(
  args: EvalArgs,
  config: EvalProcessConfig,
  { output, logger, progress }: { output: Writable; logger: Logger; progress: EvalProgress },
): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  if (args.collection !== undefined)
    return runCollectionCommand({ ...args, collection: args.collection }, config, {
      output,
      logger,
      progress,
    })
  if (args.dataset === undefined) {
    write('error: give --dataset PATH or --collection NAME')
    return 2
  }
  let dataset: Awaited<ReturnType<typeof loadDataset>>
  let configs: ReturnType<typeof parseConfigs>
  try {
    dataset = await loadDataset(args.dataset, { format: args.format, docs: args.docs })
    if (args.withoutGold) dataset = withGoldRemoved(dataset, args.withoutGold, args.seed ?? 1)
    configs = parseConfigs(args.configs)
  } catch (error) {
    if (error instanceof DatasetError) {
      write(`error: ${error.message}`)
      return 2
    }
    throw error
  }
  const baseline = args.baseline ? await readBaseline(args.baseline) : undefined
  const schema = evalSchemaOf(dataset, config.chunking, config.models)
  write(
    `${dataset.name}: ${dataset.documents.length} documents, ${dataset.questions.length} questions; schema ${schema}`,
  )

  const pool = await openDatabase({ database: { ...config.database, schema }, models: config.models, logger })
  const prefix = `${config.redis.prefix}-eval`
  const producer = await createProducer({ url: config.redis.url, prefix })
  // Two runs on one prefix would take each other's jobs and wait forever for their own.
  const running = await Promise.all(
    [...producer.queues.values()].map((queue) => queue.getWorkersCount().catch(() => 0)),
  )
  if (running.some((count) => count > 0)) {
    write(
      `error: another evaluation is running with QUEUE_PREFIX=${config.redis.prefix} (its workers hold ${prefix}); give this run its own, e.g. QUEUE_PREFIX=eval-${process.pid}`,
    )
    await producer.close()
    await pool.end()
    return 2
  }
  const questionEvents = await createQuestionEventSubscriber(config.redis.url, prefix)
  try {
    const models = await loadModels(config, configs, logger)
    const report = await runEvaluation(
      evaluationDeps(config, { pool, producer, questionEvents, prefix, logger }, models, {
        // Not DATA_DIR/eval: that folder holds the committed eval set, and the corpus copies would go with it.
        uploadDir: join(config.storage.dataDir, 'eval-corpora', schema),
      }),
      dataset,
      configs,
      {
        limit: args.limit,
        sample: args.sample,
        concurrency: args.concurrency,
        contextBudgets: args.contextBudgets,
        onProgress: progress,
      },
    )
    await models.generator?.close()
    await markEvalSchemaUsed(pool, schema)
    const dropped = await dropOldEvalSchemas(pool, schema, args.keepSchemas ?? 5)
    if (dropped.length > 0) write(`dropped ${dropped.length} older evaluation corpora: ${dropped.join(', ')}`)
    if (args.save) write(`saved as run ${await saveDatasetRun(config, logger, report)}`)
    return await reportOutcome(args, report, baseline, write)
  } finally {
    await questionEvents.close()
    await producer.close()
    await pool.end()
  }
}

/** The report printed and written (`--out`, `--html`), and the verdict against the baseline. */
async function reportOutcome(
  args: EvalArgs,
  report: EvaluationReport,
  baseline: EvaluationReport | undefined,
  write: (line: string) => void,
): Promise<number> {
  write('')
  write(renderTable(report))
  await writeReport(args.out, report)
  write('')
  write(`report: ${join(args.out, 'report.md')}, ${join(args.out, 'report.json')}`)
  if (args.html) {
    await writeHtmlReport(args.html, report)
    write(`html: ${args.html}`)
  }
  if (baseline) {
    const regressions = compareWithBaseline(report, baseline, args.maxDrop)
    for (const regression of regressions) write(`REGRESSION ${regression}`)
    if (regressions.length > 0) return 1
    write(`no metric fell more than ${args.maxDrop} against ${args.baseline}`)
  }
  return 0
}

/** A dataset run kept with the user's runs (the Evaluation view reads them there, not in the corpus schema). */
async function saveDatasetRun(
  config: EvalProcessConfig,
  logger: Logger,
  report: EvaluationReport,
): Promise<string> {
  const pool = await openDatabase({ database: config.database, models: config.models, logger })
  try {
    const id = randomUUID()
    await startRun(pool, {
      id,
      collection: null,
      dataset: report.dataset.name,
      total: 0,
      startedBy: 'pnpm eval',
    })
    await finishRun(pool, id, report)
    return id
  } finally {
    await pool.end()
  }
}

/**
 * `pnpm eval --collection NAME`: the collection's evaluation set (cases made from feedback) asked
 * of the collection as it is, in the user's own schema, with question workers of its own.
 */
async function runCollectionCommand(
  args: EvalArgs & { collection: string },
  config: EvalProcessConfig,
  { output, logger, progress }: { output: Writable; logger: Logger; progress: EvalProgress },
): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  let configs: ReturnType<typeof parseConfigs>
  try {
    configs = parseConfigs(args.configs)
  } catch (error) {
    if (!(error instanceof DatasetError)) throw error
    write(`error: ${error.message}`)
    return 2
  }
  const baseline = args.baseline ? await readBaseline(args.baseline) : undefined
  const pool = await openDatabase({ database: config.database, models: config.models, logger })
  const prefix = `${config.redis.prefix}-eval`
  const producer = await createProducer({ url: config.redis.url, prefix })
  const questionEvents = await createQuestionEventSubscriber(config.redis.url, prefix)
  try {
    const models = await loadModels(config, configs, logger)
    const { generator } = models
    const deps = evaluationDeps(config, { pool, producer, questionEvents, prefix, logger }, models, {
      uploadDir: config.storage.dataDir,
    })
    let outcome: Awaited<ReturnType<typeof runCollectionEvaluation>>
    try {
      outcome = await runCollectionEvaluation(
        deps,
        {
          collection: args.collection,
          configs,
          startedBy: 'pnpm eval',
          ownWorkers: true,
          keep: args.save === true,
        },
        { onProgress: progress },
      )
    } catch (error) {
      if (!(error instanceof DatasetError)) throw error
      write(`error: ${error.message}`)
      return 2
    } finally {
      await generator?.close()
    }
    write(
      `${outcome.report.dataset.name}: ${outcome.report.dataset.questions} cases over ${outcome.report.dataset.documents} documents`,
    )
    if (args.save) write(`saved as run ${outcome.runId}`)
    return await reportOutcome(args, outcome.report, baseline, write)
  } finally {
    await questionEvents.close()
    await producer.close()
    await pool.end()
  }
}

/** Models load once; a config that needs one that is unavailable runs degraded and says so. */
async function loadModels(config: EvalProcessConfig, configs: EvalConfig[], logger: Logger) {
  const needs = (test: (c: EvalConfig) => boolean) => configs.some(test)
  return {
    embedder: await embedderProvider(config.models, logger).get(),
    reranker: needs((c) => c.options.rerank === true)
      ? await rerankerProvider(config.models, logger).get()
      : null,
    generator: needs((c) => c.options.fusion === true || c.options.answer === 'generate')
      ? await llmProvider(config.models, config.generation, logger).get()
      : null,
  }
}

/** What an evaluation runs on: this process's database, queues and loaded models, with the settings. */
function evaluationDeps(
  config: EvalProcessConfig,
  infra: Pick<EvaluationDeps, 'pool' | 'producer' | 'questionEvents' | 'prefix' | 'logger'>,
  models: Pick<EvaluationDeps, 'embedder' | 'reranker' | 'generator'>,
  { uploadDir }: { uploadDir: string },
): EvaluationDeps {
  return {
    ...infra,
    ...models,
    redisUrl: config.redis.url,
    retrieval: config.retrieval,
    generation: config.generation,
    models: config.models,
    chunking: config.chunking,
    uploadDir,
  }
}

import { randomBytes } from 'node:crypto'
import { PassThrough } from 'node:stream'
import type { BenchConfig } from '@rag/config'
import { processEnvironment } from '@rag/config'
import { createPool, migrate, type Pool, quoteIdentifier } from '@rag/db'
import { type ProcessName, processCommands, workersOf } from '@rag/process-catalog'
import { ProcessSupervisor } from '@rag/process-supervisor'
import { createProducer, type Producer } from '@rag/queue'

// A bench run: a schema and a queue prefix of its own, and the ingestion workers as real processes.

export const INGEST_WORKERS: ProcessName[] = workersOf('ingestion')

export interface Run {
  schema: string
  prefix: string
  pool: Pool
  producer: Producer
}

/** A run's queue prefix: under the installation's QUEUE_PREFIX, apart from its queues. */
export const benchPrefix = (config: Pick<BenchConfig, 'queuePrefix'>, run: string) =>
  `${config.queuePrefix}-bench-${run}`

export async function openRun(
  config: BenchConfig,
  label: string,
  embedding: { model: string; dim: number } | null,
): Promise<Run> {
  const id = randomBytes(3).toString('hex')
  const schema = `bench_${label}_${id}`
  const pool = createPool({ url: config.databaseUrl, schema, max: 4 })
  await migrate(pool, { schema, embedding })
  const prefix = benchPrefix(config, `${label}-${id}`)
  return { schema, prefix, pool, producer: await createProducer({ url: config.redisUrl, prefix }) }
}

export async function closeRun(run: Run) {
  await run.pool.query(`DROP SCHEMA ${quoteIdentifier(run.schema)} CASCADE`)
  await run.pool.end()
  for (const queue of run.producer.queues.values())
    await queue.obliterate({ force: true }).catch(() => undefined)
  await run.producer.close()
}

export async function waitAllReady(pool: Pool, total: number, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await pool.query<{ done: number; failed: number; chunks: number }>(
      `SELECT count(*) FILTER (WHERE status IN ('ready', 'failed'))::int AS done,
              count(*) FILTER (WHERE status = 'failed')::int AS failed, coalesce(sum(chunk_count), 0)::int AS chunks FROM documents`,
    )
    const row = rows[0] ?? { done: 0, failed: 0, chunks: 0 }
    if (row.done >= total) return row
    if (Date.now() > deadline)
      throw new Error(`only ${row.done}/${total} documents finished in ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export function startWorkers(
  config: BenchConfig,
  run: Run,
  modelsDir: string,
  embeddingModel: string,
  extraEnv: Record<string, string> = {},
  programs: ProcessName[] = INGEST_WORKERS,
) {
  const output = new PassThrough()
  output.resume()
  const supervisor = new ProcessSupervisor({
    programs: processCommands(programs),
    env: {
      ...processEnvironment(),
      DATABASE_URL: config.databaseUrl,
      DB_SCHEMA: run.schema,
      REDIS_URL: config.redisUrl,
      QUEUE_PREFIX: run.prefix,
      EMBEDDING_MODEL: embeddingModel,
      EMBEDDING_DIM: '8',
      MODELS_DIR: modelsDir,
      ALLOW_MODEL_DOWNLOAD: 'false',
      LOG_LEVEL: 'warn',
      ...extraEnv,
    },
    output,
  })
  supervisor.start()
  return supervisor
}

export async function workersAttached(run: Run) {
  for (;;) {
    const counts = await Promise.all(
      INGEST_WORKERS.map(
        (name) => run.producer.queues.get(`ingest.${name.replace('worker-', '')}`)?.getWorkersCount() ?? 0,
      ),
    )
    if (counts.every((count) => count > 0)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

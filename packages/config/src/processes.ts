import { homedir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineFragment, defineProcessConfig } from './define-config.ts'
import { integer, optionalText, optionalUrl, text } from './env-values.ts'
import { chunking } from './fragments/chunking.ts'
import { database, databaseOrEmbedded } from './fragments/database.ts'
import { supervisor } from './fragments/embedded.ts'
import { gateway } from './fragments/gateway.ts'
import { generation } from './fragments/generation.ts'
import { liveness } from './fragments/liveness.ts'
import { log } from './fragments/log.ts'
import { models } from './fragments/models.ts'
import { parsing } from './fragments/parsing.ts'
import { readReplica } from './fragments/read-replica.ts'
import { redis } from './fragments/redis.ts'
import { retrieval } from './fragments/retrieval.ts'
import { signIn } from './fragments/sign-in.ts'
import { sources } from './fragments/sources.ts'
import { storage } from './fragments/storage.ts'
import { worker } from './fragments/worker.ts'

// One schema per process: each reads exactly the variables it uses, so a typo in a variable that
// a process needs stops that process at start, naming it.

export const gatewayConfig = defineProcessConfig('gateway', {
  database,
  redis,
  log,
  gateway,
  signIn,
  readReplica,
  storage,
  retrieval,
  models,
  // A collection's evaluation run from the web app reports the settings the workers answer with.
  generation,
  chunking,
  // Sources: their credentials are sealed here when added.
  sources,
})

export const supervisorConfig = defineProcessConfig('supervisor', {
  database: databaseOrEmbedded,
  redis,
  log,
  storage,
  parsing,
  supervisor,
  models,
  chunking,
  retrieval,
  generation,
  gateway,
  // The workers' own settings, checked here first; METRICS_PORT is where their ports start.
  worker,
})

export const migrateConfig = defineProcessConfig('migrate', { database, log, models })

// What every worker process reads: its database (the vector column follows the embedding model),
// its queues, logging, and the worker runtime.
const workerBase = { database, redis, log, worker, models, liveness }

/**
 * One schema per worker process: each reads the variables its stage uses, so a bad LLM setting
 * never stops the parse worker, and each error names the process.
 */
export const workerConfigs = {
  'worker-parse': defineProcessConfig('worker-parse', { ...workerBase, storage, parsing, chunking }),
  'worker-ocr': defineProcessConfig('worker-ocr', { ...workerBase, parsing }),
  'worker-chunk': defineProcessConfig('worker-chunk', { ...workerBase, chunking }),
  'worker-embed': defineProcessConfig('worker-embed', workerBase),
  'worker-store': defineProcessConfig('worker-store', workerBase),
  'worker-retrieve': defineProcessConfig('worker-retrieve', { ...workerBase, retrieval, readReplica }),
  'worker-rerank': defineProcessConfig('worker-rerank', { ...workerBase, retrieval }),
  'worker-llm': defineProcessConfig('worker-llm', { ...workerBase, retrieval, generation }),
}
export type WorkerName = keyof typeof workerConfigs
export type WorkerConfigOf<N extends WorkerName> = ReturnType<(typeof workerConfigs)[N]['parse']>
/** The sections every worker has. */
export type WorkerConfig = WorkerConfigOf<'worker-store'>

/** The command line talks to a running gateway, like any other client. */
export const cliConfig = defineProcessConfig('cli', {
  client: defineFragment({
    shape: {
      // Where `pnpm start` (or docker compose) serves the gateway; empty: this machine at
      // GATEWAY_PORT (so moving the port moves the CLI and the MCP server with it).
      GATEWAY_URL: optionalUrl(['http:', 'https:']),
    },
    read: (env) => ({ gatewayUrl: env.GATEWAY_URL?.replace(/\/+$/, '') ?? null }),
  }),
  gateway,
})
export type CliConfig = ReturnType<typeof cliConfig.parse>

/** Where the CLI and the MCP server reach the gateway: GATEWAY_URL, else this machine at GATEWAY_PORT. */
export function gatewayUrlOf(config: CliConfig): string {
  const { host, port } = config.gateway
  const local = ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  return config.client.gatewayUrl ?? `http://${local}:${port}`
}

export const watcherConfig = defineProcessConfig('watcher', {
  database,
  redis,
  log,
  liveness,
  storage,
  models,
  // The sources' syncs run here, as the watched folder's does.
  sources,
  watch: defineFragment({
    shape: {
      // Folder whose files are kept ingested (added, changed and removed files follow). Default: DATA_DIR/inbox.
      WATCH_DIR: text(''),
      // Collection the watched files belong to.
      WATCH_COLLECTION: text('inbox'),
    },
    read: (env) => ({ dir: env.WATCH_DIR, collection: env.WATCH_COLLECTION }),
  }),
})
export type WatcherConfig = ReturnType<typeof watcherConfig.parse>

/** `pnpm bench …`: where to measure, and how much. */
export const benchConfig = defineProcessConfig('bench', {
  bench: defineFragment({
    shape: {
      // A Postgres with pgvector for the measurements (fresh schemas are made and dropped); unset:
      // DATABASE_URL, as every other command reads it, else postgres://postgres@127.0.0.1:5432/test.
      BENCH_DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
      DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
      // The Redis of the measurements; unset: REDIS_URL, else redis://127.0.0.1:6379.
      BENCH_REDIS_URL: optionalUrl(['redis:', 'rediss:']),
      REDIS_URL: optionalText(),
      // The installation's queue prefix: a run's queues are `<QUEUE_PREFIX>-bench-<run>`, beside
      // (never among) the installation's own, and removed after.
      QUEUE_PREFIX: text('rag').refine((value) => /^[A-Za-z0-9_-]+$/.test(value), {
        message: 'must contain only letters, digits, "_" and "-"',
      }),
      // Documents in the ingestion throughput run.
      BENCH_DOCUMENTS: integer(200, { min: 1, max: 100000 }),
      // Pages of the large PDF whose peak memory per worker is measured (0 skips it).
      BENCH_PDF_PAGES: integer(1000, { min: 0, max: 100000 }),
      // Shared test assets (the tokenizer of the tiny embedding model).
      SHARED_DIR: text(fileURLToPath(new URL('../../../../shared', import.meta.url))),
      // Where `pnpm bench models` keeps the shape-true models it generates (GBs; never in the repo).
      BENCH_MODEL_CACHE: text(join(homedir(), '.cache', 'rag-platform', 'shape-true-models')),
      // Where `--corpus DIR` keeps a corpus analysed once (GBs for the whole Aozora edition; never in the repo).
      BENCH_CORPUS_CACHE: text(join(homedir(), '.cache', 'rag-platform', 'analysed-corpora')),
      // The browser `pnpm bench layout vertical` prints its vertical pages with (Debian's chromium).
      BENCH_CHROMIUM_PATH: text('/usr/bin/chromium'),
    },
    read: (env) => ({
      databaseUrl: env.BENCH_DATABASE_URL ?? env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
      redisUrl: env.BENCH_REDIS_URL ?? env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      queuePrefix: env.QUEUE_PREFIX,
      documents: env.BENCH_DOCUMENTS,
      pdfPages: env.BENCH_PDF_PAGES,
      sharedDir: env.SHARED_DIR,
      modelCache: env.BENCH_MODEL_CACHE,
      corpusCache: env.BENCH_CORPUS_CACHE,
      chromiumPath: env.BENCH_CHROMIUM_PATH,
    }),
  }),
  // The thread budgets and context size the product would use on this machine.
  models,
  generation,
  // The ingestion settings and worker concurrency both runs of `bench ingest` share (the worker
  // processes it starts inherit the same environment).
  chunking,
  parsing,
  storage,
  worker,
})
export type BenchProcessConfig = ReturnType<typeof benchConfig.parse>
export type BenchConfig = BenchProcessConfig['bench']

/** `pnpm eval`: the real pipeline in this process, on an evaluation schema of its own. */
export const evalConfig = defineProcessConfig('eval', {
  database,
  redis,
  log,
  storage,
  parsing,
  chunking,
  retrieval,
  generation,
  models,
})
export type EvalConfig = ReturnType<typeof evalConfig.parse>

/** Only where the data folder is: how a command finds the platform running on it (its claim file). */
export const dataFolderConfig = defineProcessConfig('data folder', { storage })

/** `pnpm models list|verify|pull`: the configured models, where they are, and getting them. */
export const modelsCommandConfig = defineProcessConfig('models', { models, generation, log })
export type ModelsCommandConfig = ReturnType<typeof modelsCommandConfig.parse>

/** Every process's settings (the tests' own are not the platform's). */
export const allProcessConfigs = [
  supervisorConfig,
  gatewayConfig,
  migrateConfig,
  ...Object.values(workerConfigs),
  cliConfig,
  watcherConfig,
  benchConfig,
  evalConfig,
  modelsCommandConfig,
]

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { processEnvironment } from '@rag/config'
import { requireTestAsset } from '@rag/config/testing'
import { createPool, type Pool } from '@rag/db'
import { readTestConfig } from '@rag/db/testing'
import { findSharedTokenizer, writeTinyEmbeddingModel } from '@rag/embeddings/testing'
import { processCommands, workersOf } from '@rag/process-catalog'
import { ProcessSupervisor } from '@rag/process-supervisor'
import { canCreateNetworks, createTestNetwork, type TestNetwork } from '@rag/process-supervisor/testing'
import { createProducer } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { expectExactChunks, numberedDocument, SMALL_CHUNKS } from './testing/numbered-documents.ts'
import { type ServicesHost, startServicesHost } from './testing/services-host.ts'

// The platform spread over hosts as a deployment spreads it: Postgres and Redis on one, the gateway
// on another, every ingestion and question stage on two more, each a network namespace of its own
// talking real TCP over veth links. One worker host is cut off mid-run (link down, processes
// killed): every document must still end ready with exactly its chunks, every accepted question done.
const DOCUMENTS = 200
const QUESTIONS = 40
/** The ingestion workers and retrieval (questions are answered extractively here). */
const WORKER_HOST_PROGRAMS = [...workersOf('ingestion'), 'worker-retrieve'] as const
const API_KEY = 'many-hosts-test-key'
const auth = { authorization: `Bearer ${API_KEY}` }
const config = readTestConfig()
const network = await canCreateNetworks()
requireTestAsset(
  config,
  'network namespaces (the many-hosts test)',
  network.ok,
  `${network.ok ? '' : network.reason}; it needs root`,
)
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(config.sharedDir)

describe.skipIf(!network.ok)('the platform on four hosts, one cut off mid-run', () => {
  let net: TestNetwork
  let services: ServicesHost
  let workDir: string
  let pool: Pool
  const supervisors = new Map<string, ProcessSupervisor>()
  /** Every process's output, shown when the test fails. */
  const logs: string[] = []

  beforeAll(async () => {
    net = await createTestNetwork(['services', 'gateway', 'worker-a', 'worker-b'])
    services = await startServicesHost(net, 'services')
    workDir = await mkdtemp(join(tmpdir(), 'rag-hosts-'))
    if (hasTokenizer)
      await writeTinyEmbeddingModel({ dir: join(workDir, 'models/test/tiny'), tokenizerDir, dim: 8 })
    pool = createPool({ url: services.databaseUrl, max: 2 })
    const env = {
      ...processEnvironment(),
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      // Shared storage: each host's parse worker reads the files the gateway stored.
      UPLOAD_DIR: join(workDir, 'uploads'),
      CHUNK_SIZE: String(SMALL_CHUNKS.size),
      CHUNK_OVERLAP: String(SMALL_CHUNKS.overlap),
      PARENT_MAX_CHARS: String(SMALL_CHUNKS.parentMaxChars),
      EMBEDDING_MODEL: hasTokenizer ? 'test/tiny' : 'none',
      EMBEDDING_DIM: '8',
      RERANKER_MODEL: 'none',
      LLM_MODEL: 'none',
      MODELS_DIR: join(workDir, 'models'),
      ALLOW_MODEL_DOWNLOAD: 'false',
      JOB_LOCK_SECONDS: '3',
      RECONCILE_AFTER_SECONDS: '5',
      QUESTION_RECONCILE_SECONDS: '2',
      ASK_RATE_PER_MINUTE: '0',
      UPLOAD_RATE_PER_MINUTE: '0',
      // Beyond loopback the gateway wants a key.
      API_KEY: API_KEY,
      GATEWAY_HOST: net.address('gateway'),
      GATEWAY_PORT: '3000',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
    }
    for (const [host, names] of [
      ['gateway', ['gateway']],
      ['worker-a', WORKER_HOST_PROGRAMS],
      ['worker-b', WORKER_HOST_PROGRAMS],
    ] as const) {
      const output = new PassThrough()
      output.on('data', (data: Buffer) =>
        logs.push(
          ...data
            .toString()
            .split('\n')
            .filter(Boolean)
            .map((l) => `${host} ${l}`),
        ),
      )
      const programs = processCommands(names).map((program) => ({
        ...program,
        ...net.onHost(host, program.command, program.args),
      }))
      const supervisor = new ProcessSupervisor({ programs, env, output, restartDelayMs: 200 })
      supervisor.start()
      supervisors.set(host, supervisor)
    }
  })

  afterAll(async () => {
    await Promise.all([...supervisors.values()].map((supervisor) => supervisor.stop(5000)))
    await pool?.end()
    await services?.stop()
    await net?.close()
    if (workDir) await rm(workDir, { recursive: true, force: true })
  })

  const gateway = () => `http://${net.address('gateway')}:3000`
  const readyCount = async () =>
    (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM documents WHERE status = 'ready'"))
      .rows[0]?.n ?? 0

  async function upload(n: number) {
    const send = () => {
      const form = new FormData()
      form.append('file', new File([numberedDocument(n)], `doc-${n}.txt`))
      return fetch(`${gateway()}/documents`, { method: 'POST', body: form, headers: auth })
    }
    // A kept-alive connection the gateway closes as the next upload starts on it fails at the
    // client (EPIPE, seen once on a loaded machine): sent again (the same content is recognised,
    // so a resend never makes a second document).
    const response = await send().catch(send)
    expect(response.status, await response.clone().text()).toBe(202)
  }

  async function ask(n: number): Promise<string> {
    const response = await fetch(`${gateway()}/ask`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        question: `Which lamp feature does document ${n} sentence 3 explain?`,
        options: { mode: 'keyword', answer: 'extractive', rerank: false },
      }),
    })
    expect(response.status).toBe(202)
    return ((await response.json()) as { id: string }).id
  }

  it('ends every document ready with its exact chunks and every accepted question done', async () => {
    onTestFailed(() => console.log(`the hosts' last output:\n${logs.slice(-100).join('\n')}`))
    // The gateway answers (503 until the rerank and LLM queues, not run here, have workers).
    await expect
      .poll(async () => (await fetch(`${gateway()}/healthz`).catch(() => undefined))?.status, {
        timeout: 90_000,
        interval: 500,
      })
      .toBeDefined()
    // Both worker hosts consume every stage's queue before any work arrives, so host b takes its
    // share (and holds some of it when it is cut off).
    const producer = await createProducer({ url: services.redisUrl, prefix: 'rag' })
    try {
      for (const queue of [
        'ingest.parse',
        'ingest.chunk',
        'ingest.embed',
        'ingest.store',
        'question.retrieve',
      ])
        await expect
          .poll(async () => (await producer.queues.get(queue)?.getWorkersCount()) ?? 0, { timeout: 90_000 })
          .toBeGreaterThanOrEqual(2)
    } finally {
      await producer.close()
    }
    const uploadRange = async (from: number, to: number) => {
      for (let n = from; n < to; n += 8)
        await Promise.all(Array.from({ length: Math.min(8, to - n) }, (_, i) => upload(n + i)))
    }
    // Half the documents first: the rest are uploaded only after the cut, so the cut always lands
    // mid-run (with every document uploaded first, a fast pipeline could finish before it).
    await uploadRange(0, DOCUMENTS / 2)
    const questions: string[] = []
    for (let n = 0; n < QUESTIONS / 2; n++) questions.push(await ask(n))

    // Mid-run: some documents ready, most not. Host b loses its link, then its processes die.
    await expect.poll(readyCount, { timeout: 120_000, interval: 200 }).toBeGreaterThanOrEqual(20)
    const cutOff = supervisors.get('worker-b')
    await net.cut('worker-b')
    for (const name of WORKER_HOST_PROGRAMS) {
      const pid = cutOff?.pid(name)
      if (pid) process.kill(-pid, 'SIGKILL')
    }
    await cutOff?.stop(100)
    await uploadRange(DOCUMENTS / 2, DOCUMENTS)
    for (let n = QUESTIONS / 2; n < QUESTIONS; n++) questions.push(await ask(n))

    await expect.poll(readyCount, { timeout: 240_000, interval: 1000 }).toBe(DOCUMENTS)
    expect(await expectExactChunks(pool, null)).toBe(DOCUMENTS)
    const statuses = await Promise.all(
      questions.map(async (id) => {
        let status = ''
        await expect
          .poll(
            async () => {
              status = (
                (await (await fetch(`${gateway()}/ask/${id}`, { headers: auth })).json()) as {
                  status: string
                }
              ).status
              return isQuestionFinished(status)
            },
            { timeout: 120_000, interval: 500 },
          )
          .toBe(true)
        return status
      }),
    )
    expect(statuses.filter((status) => status !== 'done')).toEqual([])
  }, 600_000)
})

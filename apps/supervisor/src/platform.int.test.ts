import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { processEnvironment } from '@rag/config'
import { entryArgs } from '@rag/process-catalog'
import { isAlive } from '@rag/process-supervisor'
import { stopSupervisor } from '@rag/process-supervisor/testing'
import { QUEUE_NAMES } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { freePort } from '@rag/runtime'
import { afterAll, describe, expect, it } from 'vitest'

// The README's first command, as a user runs it: the supervisor on embedded defaults (PGlite in a
// fresh data folder), every process started for real. Slow (about 15 s), so one test walks it all.

// The supervisor as `pnpm start` runs it (from its bundle while that is current).
const SUPERVISOR = entryArgs('apps/supervisor/src/main.ts')
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const run = promisify(execFile)

/** The `pnpm rag` lines of the README's sh blocks, in order, their comments dropped. */
async function readmeTourCommands(): Promise<string[]> {
  const readme = await readFile(`${ROOT}README.md`, 'utf8')
  return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line.startsWith('pnpm rag '))
}
const redisUrl = testRedisUrl()
const prefix = uniquePrefix('platform')
let supervisor: ChildProcess | undefined
let dataDir = ''

afterAll(async () => {
  await stopSupervisor(supervisor)
  await dropPrefix(redisUrl, prefix)
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('pnpm start on embedded defaults', () => {
  it('brings every process up healthy with the samples ingested, restarts a killed worker, and stops everything on Ctrl-C', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'rag-platform-'))
    const port = await freePort()
    const output: string[] = []
    const env: NodeJS.ProcessEnv = {
      ...processEnvironment(),
      DATA_DIR: dataDir,
      GATEWAY_PORT: String(port),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      // Tests never download: the default models stay missing (and are reported so) even on a
      // machine with internet. Reranking asked for by default whatever the core count.
      ALLOW_MODEL_DOWNLOAD: 'false',
      RERANK_BY_DEFAULT: 'true',
    }
    // Embedded means: no database given at all.
    for (const name of ['DATABASE_URL', 'DB_HOST']) delete env[name]
    supervisor = spawn(process.execPath, SUPERVISOR, { env })
    // Not on a terminal, so every process's lines arrive as JSON (LOG_FORMAT=auto).
    const stdoutLines: string[] = []
    if (supervisor.stdout)
      createInterface({ input: supervisor.stdout }).on('line', (line) => stdoutLines.push(line))
    if (supervisor.stderr)
      createInterface({ input: supervisor.stderr }).on('line', (line) => output.push(line))
    const exited = new Promise<number | null>((resolve) => supervisor?.once('exit', (code) => resolve(code)))

    interface Health {
      models: Record<string, { state: string; error?: string } | null>
      degraded: string[]
      postgres: { ok: boolean }
      pgvector: { ok: boolean }
      redis: { ok: boolean }
      queues: Record<string, { workers: number }>
    }
    const health = async (): Promise<{ status: number; body: Health | undefined }> => {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined)
      return response
        ? { status: response.status, body: (await response.json()) as Health }
        : { status: 0, body: undefined }
    }
    await expect.poll(async () => (await health()).status, { timeout: 90000, interval: 500 }).toBe(200)
    const { body } = await health()
    expect(body?.postgres.ok && body.pgvector.ok && body.redis.ok).toBe(true)
    expect(Object.keys(body?.queues ?? {}).sort()).toEqual([...QUEUE_NAMES].sort())

    // A second `pnpm start` on the same data folder is refused at once, naming the running one.
    const second = spawn(process.execPath, SUPERVISOR, {
      env: { ...env, GATEWAY_PORT: String(await freePort()) },
    })
    let refusal = ''
    second.stderr?.on('data', (chunk: Buffer) => {
      refusal += chunk.toString()
    })
    const secondCode = await new Promise<number | null>((resolve) => second.once('exit', resolve))
    expect(secondCode).toBe(1)
    expect(refusal).toMatch(
      new RegExp(
        `^the platform already runs on ${dataDir} \\(pid ${supervisor.pid}, started .*\\): stop it first`,
      ),
    )

    // The sample documents go through the real worker processes (keyword-only: no model hub here).
    interface Listed {
      documents: { filename: string; status: string; chunkCount: number }[]
    }
    const samples = async () =>
      ((await (await fetch(`http://127.0.0.1:${port}/documents?collection=samples`)).json()) as Listed)
        .documents
    await expect
      .poll(async () => (await samples()).filter((d) => d.status === 'ready').length, {
        timeout: 90000,
        interval: 500,
      })
      .toBe(5)
    expect((await samples()).reduce((sum, d) => sum + d.chunkCount, 0)).toBe(26)
    // The default embedding model cannot be downloaded here: said in /healthz, and ingestion went on.
    await expect
      .poll(async () => (await health()).body?.models.embedding?.state, { timeout: 30000, interval: 500 })
      .toBe('unavailable')
    expect((await health()).body?.degraded).toContain('embedding')
    expect((await health()).status).toBe(200)

    // A question through the real question workers, on defaults whose models cannot be fetched
    // here: the best answer the rest can give (keyword retrieval, the best passage), saying so.
    const asked = await fetch(`http://127.0.0.1:${port}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: '保証期間は何年ですか' }),
    })
    expect(asked.status).toBe(202)
    const { id } = (await asked.json()) as { id: string }
    interface Answer {
      status: string
      answer: string
      sources: { sourceId: string }[]
      degraded: string[]
    }
    let answer: Answer | undefined
    await expect
      .poll(
        async () => {
          answer = (await (await fetch(`http://127.0.0.1:${port}/ask/${id}`)).json()) as Answer
          return answer.status
        },
        { timeout: 60000, interval: 250 },
      )
      .toBe('done')
    expect(answer?.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    expect(answer?.answer).toContain('2年間')
    expect(answer?.degraded).toEqual(['generate', 'rerank', 'vector'])
    const models = (await health()).body?.models
    expect([models?.reranker?.state, models?.llm?.state]).toEqual(['unavailable', 'unavailable'])

    // The README's tour, as written, from a shell that names no database and no gateway: each
    // command finds the running platform by its data folder (the default one on a fresh clone).
    const shell = (command: string) =>
      run('bash', ['-c', command], { cwd: ROOT, env: { ...env, LOG_LEVEL: 'warn', VITEST: '' } }).then(
        ({ stdout }) => stdout,
        (failure: { stdout?: string; stderr?: string; message: string }) => {
          throw new Error(`${command}: ${failure.stderr || failure.stdout || failure.message}`)
        },
      )
    const tour = await readmeTourCommands()
    expect(tour.length).toBeGreaterThanOrEqual(4)
    for (const command of tour) await shell(command)
    expect(await shell('pnpm rag ask "保証期間は何年ですか"')).toContain('lumina-guide.pdf:p5')
    // `pnpm eval --collection` on this default: apps/web/src/lead-hour.int.test.ts runs it.

    // The web app and the API docs are served by the same gateway (turbo builds the app first).
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<div id="app"><\/div>/)
    expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200)

    const pidOf = (name: string) => {
      const lines = stdoutLines
        .map((line) => JSON.parse(line) as { name: string; msg: string })
        .filter((line) => line.name === name && line.msg.startsWith('[supervisor] started, pid'))
      return Number(lines.at(-1)?.msg.split('pid ')[1])
    }
    const victim = pidOf('worker-embed')
    // A pid not found in the output would be NaN or 0; 0 would signal the runner's process group.
    expect(victim).toBeGreaterThan(0)
    process.kill(victim, 'SIGKILL')
    await expect.poll(() => pidOf('worker-embed'), { timeout: 60_000 }).not.toBe(victim)
    await expect
      .poll(async () => (await health()).body?.queues?.['ingest.embed']?.workers, {
        timeout: 60000,
        interval: 500,
      })
      .toBe(1)

    const children = ['gateway', 'worker-parse', 'worker-llm', 'watcher'].map(pidOf)
    supervisor.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(children.map(isAlive)).toEqual([false, false, false, false])
  }, 600_000)
})

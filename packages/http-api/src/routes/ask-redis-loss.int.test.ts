import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { ingestSamples } from '@rag/ingest/testing'
import { readQuestion, reconcileQuestions } from '@rag/questions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'

// Redis holds only work in flight; Postgres holds every accepted question. This file runs its own
// redis-server (so it can flush and stop it) and checks that no accepted question is lost.

const _sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))
let redis: ChildProcess
let port: number
let server: GatewayServer

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number }
      probe.close(() => resolve(free))
    })
  })

async function startRedis() {
  redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  await new Promise<void>((resolve, reject) => {
    redis.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && resolve())
    redis.once('exit', (code) => reject(new Error(`redis-server exited (${code})`)))
  })
}

async function stopRedis() {
  const exited = new Promise((resolve) => redis.once('exit', resolve))
  redis.kill('SIGKILL')
  await exited
}

async function redisCommand(...args: string[]) {
  const cli = spawn('redis-cli', ['-p', String(port), ...args], { stdio: 'ignore' })
  await new Promise((resolve) => cli.once('exit', resolve))
}

const ask = (question: string) =>
  fetch(`${server.baseUrl}/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, options: { mode: 'keyword', answer: 'extractive' } }),
  })

/** What the gateway's reconciler does on its interval, run here until every question has ended. */
async function reconcileUntilFinished(ids: string[], timeoutMs = 60_000) {
  const { producer, logger } = server.fixture
  const pool = server.fixture.db.pool
  await expect
    .poll(
      async () => {
        await reconcileQuestions({ pool, producer, logger }, { staleAfterMs: 1000 }).catch(() => undefined)
        const statuses = await Promise.all(ids.map(async (id) => (await readQuestion(pool, id))?.status))
        return statuses.filter((status) => !status || !isQuestionFinished(status))
      },
      { timeout: timeoutMs, interval: 500 },
    )
    .toEqual([])
}

beforeAll(async () => {
  port = await freePort()
  await startRedis()
  server = await startGatewayServer('redis-loss', { redisUrl: `redis://127.0.0.1:${port}` })
  await ingestSamples(server.fixture, `${server.dir}/uploads`)
})

afterAll(async () => {
  await server?.close()
  redis?.kill('SIGKILL')
})

describe('questions survive Redis losing its data', () => {
  it('Redis emptied with questions in flight: every accepted question ends done', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, i) => ask(`保証期間は何年ですか (${i})`)),
    )
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 202))
    const ids = await Promise.all(responses.map(async (r) => ((await r.json()) as { id: string }).id))
    await redisCommand('FLUSHALL')
    await reconcileUntilFinished(ids)
    const questions = await Promise.all(ids.map((id) => readQuestion(server.fixture.db.pool, id)))
    expect(questions.map((q) => q?.status)).toEqual(ids.map(() => 'done'))
    expect(questions[0]?.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
  })

  it('asked while Redis is down: accepted (202), then answered once Redis is back', async () => {
    await stopRedis()
    const response = await ask('保証期間は何年ですか')
    expect(response.status).toBe(202)
    const { id } = (await response.json()) as { id: string }
    expect((await readQuestion(server.fixture.db.pool, id))?.status).toBe('queued')
    await startRedis()
    await reconcileUntilFinished([id])
    const question = await readQuestion(server.fixture.db.pool, id)
    expect(question?.status).toBe('done')
    expect(question?.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { type QuestionWorkersOptions, startQuestionWorkers } from '@rag/questions/testing'
import type { GatewayDeps } from './create-app.ts'
import { createTestGateway, keywordOnlySearch } from './test-gateway.ts'

export interface GatewayServer {
  fixture: IngestionFixture
  baseUrl: string
  /** Scratch folder, removed on close. */
  dir: string
  close(): Promise<void>
}

/** The CLI's counterpart: a real gateway on a real port, with the ingestion and question workers. */
export async function startGatewayServer(
  label: string,
  options: {
    gateway?: Partial<GatewayDeps>
    /** Models and settings for the question workers (default: keyword search, extractive answers). */
    workers?: Partial<QuestionWorkersOptions>
    /** A Redis of the test's own (default: the test Redis). */
    redisUrl?: string
  } = {},
): Promise<GatewayServer> {
  const fixture = await startIngestionFixture(label, { redisUrl: options.redisUrl })
  const dir = await mkdtemp(join(tmpdir(), `rag-${label}-`))
  const pool = fixture.db.pool
  const gateway = await createTestGateway(
    { ...fixture, pool },
    { uploadDir: join(dir, 'uploads'), maxBytes: 1_000_000, maxFiles: 10 },
    options.gateway,
  )
  const workers = startQuestionWorkers({
    ...fixture,
    pool,
    retrieval: keywordOnlySearch.retrieval,
    ...options.workers,
  })
  const server = serve({ fetch: gateway.app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise((resolve) => server.once('listening', resolve))
  return {
    fixture,
    dir,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      await Promise.all(workers.map((worker) => worker.close()))
      await gateway.close()
      await fixture.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}

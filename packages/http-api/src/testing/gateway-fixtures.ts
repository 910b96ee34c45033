import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type IngestionFixture, ingestSamples, startIngestionFixture } from '@rag/ingest/testing'
import { test as baseTest } from 'vitest'
import type { GatewayDeps } from '../create-app.ts'
import { createTestGateway, type TestGateway } from '../test-gateway.ts'

/** A gateway app over a database and queues of its own, with the ingestion workers running. */
export interface GatewayFixture {
  app: TestGateway['app']
  fixture: IngestionFixture
  uploadDir: string
}

/** How a file's gateway differs from the default one: its upload limits, its dependencies. */
export interface GatewayOptions {
  uploads?: Partial<Omit<GatewayDeps['uploads'], 'uploadDir'>>
  overrides?: Partial<GatewayDeps>
}

/** Starts one, and hands back what ends it (whatever part of the start succeeded). */
async function startGateway(
  label: string,
  { uploads = {}, overrides = {} }: GatewayOptions = {},
): Promise<GatewayFixture & { close(): Promise<void> }> {
  const fixture = await startIngestionFixture(label)
  let uploadDir: string | undefined
  let gateway: TestGateway | undefined
  const close = async () => {
    await gateway?.close()
    await fixture.close()
    if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
  }
  try {
    uploadDir = await mkdtemp(join(tmpdir(), `rag-${label}-`))
    gateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir, maxBytes: 1e6, maxFiles: 10, ...uploads },
      overrides,
    )
    return { app: gateway.app, fixture, uploadDir, close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * The HTTP tests' fixtures (vitest's test.extend):
 * - `samples`: a gateway over the sample documents, ingested once for the file (the tests that
 *   use it only read, so they cannot disturb one another);
 * - `gateway`: a gateway of the test's own, empty (a fresh schema and queue prefix per test), for
 *   tests that change what is stored.
 */
export const gatewayTest = baseTest
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a fixture needs from its first parameter
  .extend('samples', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startGateway('samples')
    onCleanup(() => server.close())
    await ingestSamples(server.fixture, server.uploadDir)
    return server as GatewayFixture
  })
  .extend('gateway', async ({ task }, { onCleanup }) => {
    const server = await startGateway(task.name.slice(0, 20))
    onCleanup(() => server.close())
    return server as GatewayFixture
  })

/**
 * `gatewayTest` with one more fixture, `server`: an empty gateway shared by the file, built with
 * `options` (keys, limits, models) — for files whose tests need a gateway unlike the default.
 */
export function gatewayTestWith(label: string, options: GatewayOptions) {
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a fixture needs from its first parameter
  return gatewayTest.extend('server', { scope: 'file' }, async ({}, { onCleanup }) => {
    const server = await startGateway(label, options)
    onCleanup(() => server.close())
    return server as GatewayFixture
  })
}

/** A request to the fixture's gateway, a JSON body when given, and its status and JSON answer. */
export async function sendJson(
  { app }: Pick<GatewayFixture, 'app'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app.request(path, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

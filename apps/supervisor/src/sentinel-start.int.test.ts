import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { processEnvironment } from '@rag/config'
import { entryArgs } from '@rag/process-catalog'
import { stopSupervisor } from '@rag/process-supervisor/testing'
import { QUEUE_NAMES } from '@rag/queue'
import { SENTINEL_NAME, type SentinelCluster, startSentinelCluster, uniquePrefix } from '@rag/queue/testing'
import { freePort } from '@rag/runtime'
import { afterAll, expect, it } from 'vitest'

// docs/operations.md's Sentinel settings through `pnpm start`: REDIS_SENTINELS and
// REDIS_SENTINEL_NAME, no REDIS_URL. The supervisor must hand its processes what they can start
// with (the settings they read themselves), and every process must come up and stay up.
// The supervisor as `pnpm start` runs it (from its bundle while that is current).
const SUPERVISOR = entryArgs('apps/supervisor/src/main.ts')
let cluster: SentinelCluster | undefined
let supervisor: ChildProcess | undefined
let dataDir = ''

afterAll(async () => {
  await stopSupervisor(supervisor)
  await cluster?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it('starts every process with Redis behind Sentinel as documented, none of them crash-looping', async () => {
  cluster = await startSentinelCluster()
  dataDir = await mkdtemp(join(tmpdir(), 'rag-sentinel-start-'))
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...processEnvironment(),
    DATA_DIR: dataDir,
    GATEWAY_PORT: String(port),
    REDIS_SENTINELS: cluster.ports.sentinels.map((sentinel) => `127.0.0.1:${sentinel}`).join(','),
    REDIS_SENTINEL_NAME: SENTINEL_NAME,
    QUEUE_PREFIX: uniquePrefix('sentinel-start'),
    ALLOW_MODEL_DOWNLOAD: 'false',
    SEED_SAMPLE_DATA: 'false',
  }
  for (const name of ['DATABASE_URL', 'DB_HOST', 'REDIS_URL']) delete env[name]
  supervisor = spawn(process.execPath, SUPERVISOR, { env })
  const lines: string[] = []
  for (const stream of [supervisor.stdout, supervisor.stderr])
    if (stream) createInterface({ input: stream }).on('line', (line) => lines.push(line))

  const health = async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined)
    return response?.ok ? ((await response.json()) as { queues: Record<string, { workers: number }> }) : null
  }
  await expect
    .poll(
      async () => Object.values((await health())?.queues ?? {}).filter((queue) => queue.workers > 0).length,
      {
        // Every process starting at once on a loaded 2-core machine: generous, as only the outcome counts.
        timeout: 540_000,
        interval: 500,
      },
    )
    .toBe(QUEUE_NAMES.length)
  // No process refused its settings, and none was restarted.
  const said = lines.join('\n')
  expect(said).not.toMatch(/use one or the other/)
  expect(said).not.toMatch(/\[supervisor\] exited/)
}, 600_000)

import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { readTestConfig } from '../testing.ts'

// vitest's global setup (vitest.config.ts): on the PGlite backend, one in-memory PGlite per vitest
// worker, started once for the run; each test file takes its worker's (createTestDatabase) and a
// schema of its own in it, as on native Postgres. Booting PGlite with pgvector takes 6–14 s:
// once per test database, as before, that was most of the PGlite pass.
interface PgliteProcess {
  url: string
  child: ChildProcess
}

const MAIN = fileURLToPath(new URL('./pglite-server-main.ts', import.meta.url))
// vitest runs global setups in its module runner, which has no import.meta.resolve.
const TSX = createRequire(import.meta.url).resolve('tsx')

async function startPgliteProcess(): Promise<PgliteProcess> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], { stdio: ['pipe', 'pipe', 'inherit'] })
  if (!child.stdout) throw new Error('the PGlite process has no stdout')
  const lines = createInterface({ input: child.stdout })
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`the PGlite process ended (${String(code)}) before saying where it listens`)
  })
  const [line] = (await Promise.race([once(lines, 'line'), exited])) as [string]
  lines.close()
  return { url: (JSON.parse(line) as { url: string }).url, child }
}

async function stop({ child }: PgliteProcess) {
  if (child.exitCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

// The projects that run on a database (long, integration) share the same servers: started by the
// first setup, stopped when the last one tears down.
let servers: Promise<PgliteProcess[]> | undefined
let users = 0

export default async function setup(project: TestProject) {
  if (readTestConfig().dbBackend !== 'pglite') {
    project.provide('pgliteUrls', [])
    return
  }
  users += 1
  servers ??= Promise.all(Array.from({ length: project.globalConfig.maxWorkers }, startPgliteProcess))
  project.provide(
    'pgliteUrls',
    (await servers).map((server) => server.url),
  )
  return async () => {
    users -= 1
    if (users > 0 || !servers) return
    const started = await servers
    servers = undefined
    await Promise.all(started.map(stop))
  }
}

import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { processEnvironment, testConfig } from '@rag/config'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

// docker-compose.yml as Compose reads it: Compose v1 (`docker-compose`, Debian's package;
// scripts/install-compose.sh) validates it against its schema without a Docker engine, and so does
// Compose v2 (`docker compose`) where it is installed.
const root = fileURLToPath(new URL('../../../', import.meta.url))
const run = promisify(execFile)
const { ci } = testConfig.parse(processEnvironment()).test
const env = { ...process.env, API_KEY: 'compose-test-key-0123456789' }
const available = async (command: string, args: string[]) =>
  run(command, args, { env }).then(
    () => true,
    () => false,
  )
const hasV1 = await available('docker-compose', ['version'])
const hasV2 = await available('docker', ['compose', 'version'])
if (ci && !hasV1) throw new Error('docker-compose (Compose v1) is missing: run scripts/install-compose.sh')

describe('docker-compose.yml', () => {
  it.skipIf(!hasV1)('parses with Compose v1', async () => {
    await run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env })
  })

  it.skipIf(!hasV2)('parses with Compose v2', async () => {
    await run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, env })
  })

  it('gives every app a health check and the watcher an inbox folder of this machine', async () => {
    const compose = parse(await readFile(`${root}docker-compose.yml`, 'utf8'), { merge: true }) as {
      name?: string
      services: Record<string, { healthcheck?: unknown; volumes?: string[]; command?: string[] }>
    }
    expect(compose.name, 'a top-level name breaks Compose v1').toBeUndefined()
    for (const [name, service] of Object.entries(compose.services))
      expect(service.healthcheck, name).toBeDefined()
    expect(compose.services.watcher?.volumes).toContain('./data/inbox:/app/data/inbox')
  })
})

import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gatewayConfig, processEnvironment, watcherConfig, workerConfigs } from '@rag/config'
import { requireTestAsset, testConfig } from '@rag/config/testing'
import { PROCESS_NAMES, PROCESSES, processArguments } from '@rag/process-catalog'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

// No Docker engine runs where the tests run, so the compose file is checked against the code instead:
// every process has a service, every variable is one the config schema knows and accepts; and
// Compose itself parses it: v1 (`docker-compose`, Debian's package, scripts/install-compose.sh)
// without an engine, and v2 (`docker compose`) where the plugin is installed.

const root = new URL('../../../', import.meta.url)
interface Service {
  image?: string
  command?: string[]
  environment?: Record<string, string>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: { test: string[] }
  volumes?: string[]
  ports?: string[]
  container_name?: string
}
const compose = parse(await readFile(new URL('docker-compose.yml', root), 'utf8'), { merge: true }) as {
  services: Record<string, Service>
  volumes: Record<string, unknown>
}
const services = compose.services
const rootPath = fileURLToPath(root)
const run = promisify(execFile)
const composeEnv = { ...process.env, API_KEY: 'compose-test-key-0123456789' }
const available = (command: string, args: string[]) =>
  run(command, args, { env: composeEnv }).then(
    () => true,
    () => false,
  )
const hasV1 = await available('docker-compose', ['version'])
requireTestAsset(
  testConfig.parse(processEnvironment()).test,
  'docker-compose (Compose v1)',
  hasV1,
  'run scripts/install-compose.sh',
)
const apps = PROCESS_NAMES.map((name) => [name, services[name]] as const)

/** Resolves ${VAR:-default} and ${VAR:?message} the way compose would with an .env giving API_KEY. */
function interpolate(environment: Record<string, string> = {}) {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [
      key,
      String(value).replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_m, name: string, fallback?: string) =>
        name === 'API_KEY' ? 'compose-test-key' : (fallback ?? ''),
      ),
    ]),
  )
}

describe('docker-compose.yml', () => {
  it('runs pgvector/pgvector:pg16 and redis:7 with persistence and healthchecks', () => {
    expect(services.postgres?.image).toBe('pgvector/pgvector:pg16')
    expect(services.postgres?.volumes).toContain('pgdata:/var/lib/postgresql/data')
    expect(services.postgres?.healthcheck?.test.join(' ')).toContain('pg_isready')
    expect(services.redis?.image).toBe('redis:7')
    expect(services.redis?.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']))
    expect(services.redis?.volumes).toContain('redisdata:/data')
    expect(services.redis?.healthcheck?.test).toContain('ping')
    expect(Object.keys(compose.volumes).sort()).toEqual(['app-data', 'models', 'pgdata', 'redisdata'])
  })

  it('has one service per process, running that app, started only once its dependencies are healthy', () => {
    for (const [name, service] of apps) {
      expect(service, name).toBeDefined()
      expect(service?.command?.slice(-1 - processArguments(name).length)).toEqual([
        PROCESSES[name].entry,
        ...processArguments(name),
      ])
      expect(service?.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      })
      expect(service?.volumes?.slice(0, 2)).toEqual(['app-data:/app/data', 'models:/app/models'])
      // Each health-checked: the gateway by /healthz, the others by the liveness file they touch.
      expect(service?.healthcheck?.test.slice(0, 3), name).toEqual(['CMD', 'node', 'scripts/healthcheck.mjs'])
      if (name !== 'gateway') expect(service?.environment?.LIVENESS_FILE, name).toBe('/tmp/alive')
    }
    expect(services.gateway?.healthcheck?.test.join(' ')).toContain('/healthz')
    // Files dropped into ./data/inbox on the host reach the watcher.
    expect(services.watcher?.volumes).toContain('./data/inbox:/app/data/inbox')
  })

  it('keeps workers scalable with --scale (no fixed names, no published ports)', () => {
    for (const [name, service] of apps.filter(([name]) => name.startsWith('worker-'))) {
      expect(service?.container_name, name).toBeUndefined()
      expect(service?.ports, name).toBeUndefined()
    }
  })

  it('sets only variables the config schema knows, with values it accepts', () => {
    for (const [name, service] of apps) {
      const schema =
        name === 'gateway'
          ? gatewayConfig
          : name === 'watcher'
            ? watcherConfig
            : workerConfigs[name as keyof typeof workerConfigs]
      const env = interpolate(service?.environment)
      const known = new Set(schema.variables)
      expect(
        Object.keys(env).filter((key) => !known.has(key)),
        `${name} sets variables its config ignores`,
      ).toEqual([])
      expect(() => schema.parse(env), name).not.toThrow()
    }
    // The gateway listens beyond loopback in compose, so a key is demanded rather than defaulted.
    expect(services.gateway?.environment?.API_KEY).toMatch(/^\$\{API_KEY:\?/)
  })

  it('points every app at the compose database and Redis', () => {
    const pg = services.postgres?.environment ?? {}
    for (const [name, service] of apps) {
      const config = workerConfigs['worker-store'].parse(interpolate(service?.environment))
      expect(config.database.url, name).toBe(
        `postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`,
      )
      expect(config.redis.url, name).toBe('redis://redis:6379')
    }
  })

  // Compose v1 is what CI installs (Debian's docker-compose); v2 is checked too where a machine has it.
  it.skipIf(!hasV1)('parses with the Compose this machine has (v1, and v2 where present)', async () => {
    await run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], {
      cwd: rootPath,
      env: composeEnv,
    })
    if (await available('docker', ['compose', 'version']))
      await run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '-q'], {
        cwd: rootPath,
        env: composeEnv,
      })
  })

  it('has no top-level name (Compose v1 refuses it)', async () => {
    const raw = parse(await readFile(new URL('docker-compose.yml', root), 'utf8')) as { name?: string }
    expect(raw.name).toBeUndefined()
  })

  it('is built from one Dockerfile that prunes the workspace for every app', async () => {
    const dockerfile = await readFile(new URL('Dockerfile', root), 'utf8')
    // The packages `turbo prune` keeps (the line and its continuations)…
    const pruned = (dockerfile.match(/turbo prune ((?:[^\n\\]|\\\n)*)/)?.[1] ?? '').split(/[\s\\]+/)
    // …hold the app of each process's entry (every worker's is the one worker app).
    const apps = new Set(PROCESS_NAMES.map((name) => PROCESSES[name].entry.replace(/\/src\/.*$/, '')))
    for (const app of apps) {
      const { name } = JSON.parse(await readFile(new URL(`${app}/package.json`, root), 'utf8')) as {
        name: string
      }
      expect(pruned).toContain(name)
    }
  })
})

import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { appendFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { initCluster, postgresBin } from '@rag/db/testing'
import type { TestNetwork } from '@rag/process-supervisor/testing'

const run = promisify(execFile)

export interface ServicesHost {
  databaseUrl: string
  redisUrl: string
  stop(): Promise<void>
}

async function until(check: () => Promise<unknown>, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      await check()
      return
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not start: ${String(error)}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
}

/**
 * A fresh Postgres cluster (with the machine's pgvector) and a Redis server of their own on one
 * host of a test network, listening on its address only: the shared services of a multi-host
 * deployment. Postgres runs as the postgres user, as it refuses root.
 */
export async function startServicesHost(network: TestNetwork, host: string): Promise<ServicesHost> {
  const address = network.address(host)
  const bin = await postgresBin()
  const dataDir = await initCluster(bin, 'rag-hosts-pg-')
  await appendFile(join(dataDir, 'pg_hba.conf'), 'host all all 0.0.0.0/0 trust\n')
  const children: ChildProcess[] = []
  const start = (command: string, args: string[]) => {
    const line = network.onHost(host, command, args)
    const child = spawn(line.command, line.args, { stdio: 'ignore', detached: true })
    children.push(child)
  }
  start('runuser', [
    '-u',
    'postgres',
    '--',
    `${bin}/postgres`,
    '-D',
    dataDir,
    '-c',
    `listen_addresses=${address}`,
    '-c',
    'port=5432',
    '-c',
    `unix_socket_directories=${dataDir}`,
    '-c',
    'fsync=off',
    '-c',
    'max_connections=200',
    // As docs/operations.md advises for hosts that can vanish: a cut-off client's transaction must not
    // keep its row locks until the kernel gives the connection up.
    '-c',
    'idle_in_transaction_session_timeout=10s',
    '-c',
    'tcp_keepalives_idle=5',
    '-c',
    'tcp_keepalives_interval=2',
    '-c',
    'tcp_keepalives_count=3',
  ])
  // Protected mode would refuse every client not on loopback (no password is set on this network).
  start('redis-server', [
    '--bind',
    address,
    '--port',
    '6379',
    '--save',
    '',
    '--appendonly',
    'no',
    '--protected-mode',
    'no',
  ])
  await until(() => run('pg_isready', ['-h', address, '-p', '5432', '-q']), 'Postgres')
  await until(async () => {
    // redis-cli exits 0 even when the server refuses: the answer itself is checked.
    const { stdout } = await run('redis-cli', ['-h', address, '-p', '6379', 'ping'])
    if (stdout.trim() !== 'PONG') throw new Error(stdout.trim())
  }, 'Redis')
  return {
    databaseUrl: `postgres://postgres@${address}:5432/postgres`,
    redisUrl: `redis://${address}:6379`,
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve()
              child.once('exit', () => resolve())
              process.kill(-child.pid, 'SIGTERM')
            }),
        ),
      )
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatSentinelUrl } from '@rag/config'
import { freePort } from '@rag/runtime'
import { Redis } from 'ioredis'

export interface SentinelCluster {
  /** The redis-sentinel:// address every process of the platform takes as REDIS_URL. */
  url: string
  /** The port of the primary now, as the sentinels say. */
  primaryPort(): Promise<number>
  /** The two Redis servers' ports (the first started as the primary) and the sentinels'. */
  ports: { servers: [number, number]; sentinels: number[] }
  /**
   * One more sentinel, of its own opinion: it monitors the server on `port` as the primary (a
   * sentinel left with a stale or wrong configuration). Returns its host:port; stopped on close.
   */
  startDissentingSentinel(port: number): Promise<string>
  /** Kills the current primary outright (SIGKILL: a host that died). */
  killPrimary(): Promise<number>
  close(): Promise<void>
}

export const SENTINEL_NAME = 'rag-primary'

const waitFor = async (check: () => Promise<boolean>, what: string, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 250)) {
    if (await check().catch(() => false)) return
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}
const ask = async (port: number, ...command: [string, ...string[]]) => {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  })
  client.on('error', () => undefined)
  try {
    await client.connect()
    return await client.call(...command)
  } finally {
    client.disconnect()
  }
}

/**
 * A primary, a replica and three sentinels (quorum 2) on free loopback ports, as Debian's
 * redis-server runs them (`--sentinel`), with the settings BullMQ needs (noeviction, AOF), a
 * failure noticed after 1 s. Always `close()` it.
 */
export async function startSentinelCluster(): Promise<SentinelCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'rag-sentinel-'))
  const children: ChildProcess[] = []
  const start = (args: string[]) => {
    const child = spawn('redis-server', args, { stdio: 'ignore' })
    children.push(child)
    return child
  }
  const servers = new Map<number, ChildProcess>()
  const [primary, replica] = [await freePort(), await freePort()]
  for (const port of [primary, replica]) {
    const data = join(dir, String(port))
    await mkdir(data)
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      data,
      '--save',
      '',
      '--appendonly',
      'yes',
    ]
    servers.set(
      port,
      start([
        ...args,
        '--maxmemory-policy',
        'noeviction',
        ...(port === replica ? ['--replicaof', '127.0.0.1', String(primary)] : []),
      ]),
    )
  }
  await waitFor(
    async () => String(await ask(replica, 'INFO', 'replication')).includes('master_link_status:up'),
    'the replica',
  )
  const startSentinel = async (monitored: number, quorum: number) => {
    const port = await freePort()
    const conf = join(dir, `sentinel-${port}.conf`)
    await writeFile(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${monitored} ${quorum}`,
        `sentinel down-after-milliseconds ${SENTINEL_NAME} 1000`,
        `sentinel failover-timeout ${SENTINEL_NAME} 10000`,
        `sentinel parallel-syncs ${SENTINEL_NAME} 1`,
        '',
      ].join('\n'),
    )
    start([conf, '--sentinel'])
    return port
  }
  const sentinels: number[] = []
  for (let i = 0; i < 3; i++) sentinels.push(await startSentinel(primary, 2))
  const primaryPort = async () => {
    for (const port of sentinels) {
      const answer = (await ask(port, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME).catch(
        () => null,
      )) as [string, string] | null
      if (answer) return Number(answer[1])
    }
    throw new Error('no sentinel answers')
  }
  // Ready when every sentinel knows the replica and the other sentinels.
  await waitFor(async () => {
    const views = await Promise.all(
      sentinels.map((port) => ask(port, 'SENTINEL', 'master', SENTINEL_NAME) as Promise<string[]>),
    )
    return views.every((view) => {
      const field = (name: string) => view[view.indexOf(name) + 1]
      return field('num-slaves') === '1' && field('num-other-sentinels') === '2'
    })
  }, 'the sentinels to find each other')

  return {
    url: formatSentinelUrl(
      sentinels.map((port) => `127.0.0.1:${port}`),
      SENTINEL_NAME,
    ),
    primaryPort,
    ports: { servers: [primary, replica], sentinels },
    async startDissentingSentinel(monitored) {
      const port = await startSentinel(monitored, 1)
      await waitFor(
        async () => Array.isArray(await ask(port, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME)),
        'the dissenting sentinel',
      )
      return `127.0.0.1:${port}`
    },
    async killPrimary() {
      const port = await primaryPort()
      const server = servers.get(port)
      server?.kill('SIGKILL')
      await waitFor(
        async () => (await primaryPort()) !== port,
        'the sentinels to promote the replica',
        60_000,
      )
      return port
    },
    async close() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once('exit', () => resolve())
              child.kill('SIGKILL')
            }),
        ),
      )
      await rm(dir, { recursive: true, force: true })
    },
  }
}

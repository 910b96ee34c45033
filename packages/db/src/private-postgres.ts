import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { access, mkdtemp, readdir, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

export const run = promisify(execFile)

/** A Postgres server of a test's own, which it may stop and start again (the shared one it may not). */
export interface PrivatePostgres {
  /** Its `postgres` database, on loopback. */
  url: string
  /** Stops the server (fast shutdown: sessions are cut, as in a real restart), then starts it again once `down` resolves. */
  restart(down: () => Promise<void>): Promise<void>
  stop(): Promise<void>
}

/** The newest Postgres server installed from Debian's packages (its initdb and postgres). */
export async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a))
  if (!versions[0])
    throw new Error('no Postgres server under /usr/lib/postgresql (apt-get install postgresql)')
  return `/usr/lib/postgresql/${versions[0]}/bin`
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

/** Runs as the postgres user when this process is root (Postgres refuses to run as root). */
export const asPostgres = (command: string, args: string[]): [string, string[]] =>
  process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args]

/** A new cluster in a new temporary folder (trust authentication, UTF-8), owned by the user that will run it. */
export async function initCluster(bin: string, prefix: string): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix))
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', dataDir])
  await run(
    ...asPostgres(`${bin}/initdb`, [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ]),
  )
  return dataDir
}

/** A cluster's server on a port: started and stopped (fast shutdown) at will. */
export function serveCluster(bin: string, dataDir: string, port: number, settings: string[] = []) {
  let server: ChildProcess | undefined
  const start = async () => {
    const [command, args] = asPostgres(`${bin}/postgres`, [
      '-D',
      dataDir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `port=${port}`,
      '-c',
      `unix_socket_directories=${dataDir}`,
      '-c',
      'fsync=off',
      '-c',
      'max_connections=100',
      ...settings.flatMap((setting) => ['-c', setting]),
    ])
    server = spawn(command, args, { stdio: 'ignore', detached: true })
    for (;;) {
      const ready = await run('pg_isready', ['-h', '127.0.0.1', '-p', String(port), '-q']).then(
        () => true,
        () => false,
      )
      if (ready) return
      if (server.exitCode !== null) throw new Error(`the private Postgres on port ${port} exited at start`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const halt = async () => {
    const child = server
    if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // SIGINT: Postgres's fast shutdown, which ends every session at once.
    process.kill(-child.pid, 'SIGINT')
    await exited
    // runuser may end first: the server is down once it has removed its pid file.
    while (
      await access(join(dataDir, 'postmaster.pid')).then(
        () => true,
        () => false,
      )
    )
      await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { start, halt, url: `postgres://postgres@127.0.0.1:${port}/postgres` }
}

/**
 * A fresh Postgres cluster (with the machine's pgvector) on a free loopback port, for a test that
 * must restart its database: started with initdb in a temporary folder, removed by stop().
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = await postgresBin()
  const dataDir = await initCluster(bin, 'rag-private-pg-')
  const cluster = serveCluster(bin, dataDir, await freePort())
  await cluster.start()
  return {
    url: cluster.url,
    restart: async (down) => {
      await cluster.halt()
      await down()
      await cluster.start()
    },
    stop: async () => {
      await cluster.halt()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { asPostgres, freePort, initCluster, postgresBin, run, serveCluster } from './private-postgres.ts'

/** A primary and its streaming replica (made with pg_basebackup), a test's own, on loopback. */
export interface ReplicatedPostgres {
  primaryUrl: string
  replicaUrl: string
  /** The replica stops (or goes on) applying what it receives: a replica falling behind. */
  pauseReplay(): Promise<void>
  resumeReplay(): Promise<void>
  /** The primary goes down (fast shutdown), as its host would. */
  stopPrimary(): Promise<void>
  /** The replica becomes a primary (what an operator, or Patroni, does after a failover). */
  promoteReplica(): Promise<void>
  stop(): Promise<void>
}

const sql = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}

/**
 * The primary commits synchronously (a commit returns once the replica has the WAL on disk), so
 * nothing a client was told is saved is lost when the replica is promoted; applying it stays
 * asynchronous, so a paused replay lets the replica fall behind without stopping the primary.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const bin = await postgresBin()
  const primaryDir = await initCluster(bin, 'rag-primary-pg-')
  const primary = serveCluster(bin, primaryDir, await freePort(), ['wal_level=replica', 'max_wal_senders=5'])
  await primary.start()
  const replicaDir = await mkdtemp(join(tmpdir(), 'rag-replica-pg-'))
  if (process.getuid?.() === 0) await run('chown', ['postgres:postgres', replicaDir])
  const primaryPort = new URL(primary.url).port
  await run(
    ...asPostgres(`${bin}/pg_basebackup`, [
      '-h',
      '127.0.0.1',
      '-p',
      primaryPort,
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
    ]),
  )
  await run(...asPostgres('chmod', ['700', replicaDir]))
  const replica = serveCluster(bin, replicaDir, await freePort(), [
    'hot_standby=on',
    'hot_standby_feedback=on',
  ])
  await replica.start()
  // Synchronous once the replica streams (before, a commit would wait for a standby not there yet).
  for (;;) {
    const rows = await sql(
      primary.url,
      'SELECT count(*)::int AS n FROM pg_stat_replication WHERE state = $$streaming$$',
    )
    if ((rows[0] as { n: number }).n > 0) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  await sql(primary.url, "ALTER SYSTEM SET synchronous_standby_names = '*'")
  await sql(primary.url, 'SELECT pg_reload_conf()')
  return {
    primaryUrl: primary.url,
    replicaUrl: replica.url,
    pauseReplay: async () => void (await sql(replica.url, 'SELECT pg_wal_replay_pause()')),
    resumeReplay: async () => void (await sql(replica.url, 'SELECT pg_wal_replay_resume()')),
    stopPrimary: () => primary.halt(),
    promoteReplica: async () => {
      await sql(replica.url, 'SELECT pg_promote(true, 60)')
    },
    stop: async () => {
      await Promise.all([primary.halt(), replica.halt()])
      await Promise.all([
        rm(primaryDir, { recursive: true, force: true }),
        rm(replicaDir, { recursive: true, force: true }),
      ])
    },
  }
}

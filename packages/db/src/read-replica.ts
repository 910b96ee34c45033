import type { Logger } from '@rag/log'
import { createPool, type Pool } from './create-pool.ts'

/**
 * Where a read runs. The rule: a read goes to the replica only when the replica has replayed
 * everything the primary had committed when the read began (so a question about a document just
 * made ready, or a search right after an upload, finds it); the replica is waited for a moment
 * (it is usually milliseconds behind), and skipped at once when it is further behind than
 * `maxLagSeconds`, not a standby, or down (then not asked again for a few seconds).
 */
export interface ReadReplica {
  /** The pool this read may use, and why. */
  choose(): Promise<{ pool: Pool; on: 'replica' | 'primary'; reason?: ReadFallback }>
  /** How many reads went where (and why not to the replica), since the start. */
  readonly counts: Record<'replica' | ReadFallback, number>
  close(): Promise<void>
}

export type ReadFallback = 'behind' | 'far-behind' | 'not-a-standby' | 'down'

/** How long a read waits for the replica to reach the primary's position. */
const CATCH_UP_MS = 200
/** A replica that failed is left alone this long before it is tried again. */
const DOWN_MS = 5_000

export function openReadReplica({
  primary,
  url,
  schema,
  maxLagSeconds,
  logger,
  max = 10,
}: {
  primary: Pool
  url: string
  schema?: string
  maxLagSeconds: number
  logger: Logger
  max?: number
}): ReadReplica {
  const replica = createPool({ url, schema, max, logger, connectTimeoutMs: 2000 })
  const counts: ReadReplica['counts'] = {
    replica: 0,
    behind: 0,
    'far-behind': 0,
    'not-a-standby': 0,
    down: 0,
  }
  let downUntil = 0
  const fallback = (reason: ReadFallback) => {
    counts[reason]++
    return { pool: primary, on: 'primary' as const, reason }
  }

  return {
    counts,
    async choose() {
      if (Date.now() < downUntil) return fallback('down')
      try {
        const { rows } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')
        const target = rows[0]?.lsn
        const deadline = Date.now() + CATCH_UP_MS
        for (let wait = 5; ; wait = Math.min(wait * 2, 50)) {
          const state = await replica.query<{
            standby: boolean
            caught_up: boolean | null
            lag: number | null
          }>(
            `SELECT pg_is_in_recovery() AS standby,
                    pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up,
                    CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                         ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp())::float8 END AS lag`,
            [target],
          )
          const row = state.rows[0]
          // Promoted (or pointed at a primary by mistake): not a copy of this primary any more.
          if (!row?.standby) return fallback('not-a-standby')
          if (row.caught_up) {
            counts.replica++
            return { pool: replica, on: 'replica' as const }
          }
          if ((row.lag ?? 0) > maxLagSeconds) return fallback('far-behind')
          if (Date.now() + wait > deadline) return fallback('behind')
          await new Promise((resolve) => setTimeout(resolve, wait))
        }
      } catch (error) {
        // The primary's own failure is the read's (it would fail there too); the replica's is not.
        if (await primaryAnswers(primary)) {
          downUntil = Date.now() + DOWN_MS
          logger.warn({ err: error }, 'the read replica does not answer: reading from the primary')
          return fallback('down')
        }
        throw error
      }
    },
    close: () => replica.end(),
  }
}

const primaryAnswers = (primary: Pool) =>
  primary.query('SELECT 1').then(
    () => true,
    () => false,
  )

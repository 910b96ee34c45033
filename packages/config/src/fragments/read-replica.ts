import { defineFragment } from '../define-config.ts'
import { decimal, optionalUrl } from '../env-values.ts'

export interface ReadReplicaSection {
  /** A streaming replica of DATABASE_URL for searches; absent: every read on the primary. */
  url?: string
  maxLagSeconds: number
}

export const readReplica = defineFragment({
  shape: {
    // A streaming replica of the primary, for searches (GET /search and the retrieve worker).
    // Writes, and reads that must see their own writes, stay on DATABASE_URL. A search goes to the
    // replica once it has replayed what the primary had committed when the search began.
    DATABASE_READ_URL: optionalUrl(['postgres:', 'postgresql:']),
    // A replica further behind than this (seconds of replay) is skipped without waiting for it.
    READ_REPLICA_MAX_LAG: decimal(5, { min: 0, max: 3600 }),
  },
  read: (env): ReadReplicaSection => ({
    ...(env.DATABASE_READ_URL ? { url: env.DATABASE_READ_URL } : {}),
    maxLagSeconds: env.READ_REPLICA_MAX_LAG,
  }),
})

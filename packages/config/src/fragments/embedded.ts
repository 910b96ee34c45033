import { defineFragment } from '../define-config.ts'
import { boolean, integer, optionalText } from '../env-values.ts'

export interface SupervisorSection {
  pgliteDir: string | undefined
  pglitePort: number
  pgliteMaxConnections: number
  seedSampleData: boolean
  restartDelayMs: number
}

export const supervisor = defineFragment({
  shape: {
    // Embedded database folder (PGlite). Default: DATA_DIR/pglite.
    PGLITE_DIR: optionalText(),
    // Port the embedded database is served on; 0 picks a free one.
    PGLITE_PORT: integer(0, { min: 0, max: 65535 }),
    // Client connections the embedded server multiplexes onto its one session.
    PGLITE_MAX_CONNECTIONS: integer(64, { min: 2, max: 1000 }),
    // Ingest data/sample on start so a fresh installation has something to ask about.
    SEED_SAMPLE_DATA: boolean(true),
    // First delay before restarting a crashed process; doubles on each crash in a row.
    RESTART_DELAY_MS: integer(500, { min: 0, max: 60000 }),
  },
  read: (env): SupervisorSection => ({
    pgliteDir: env.PGLITE_DIR,
    pglitePort: env.PGLITE_PORT,
    pgliteMaxConnections: env.PGLITE_MAX_CONNECTIONS,
    seedSampleData: env.SEED_SAMPLE_DATA,
    restartDelayMs: env.RESTART_DELAY_MS,
  }),
})

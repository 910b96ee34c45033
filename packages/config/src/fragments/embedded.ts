import { defineFragment } from '../define-config.ts'
import { boolean, integer, oneOf, optionalText } from '../env-values.ts'

/**
 * Where a process's code runs from: its TypeScript sources under tsx's loader, or the bundle its
 * app's `build` made of them (`dist/main.mjs`: the same modules in one file, started without tsx).
 */
export const PROCESS_RUNTIMES = ['source', 'bundle'] as const
export type ProcessRuntime = (typeof PROCESS_RUNTIMES)[number]

export interface SupervisorSection {
  pgliteDir: string | undefined
  pglitePort: number
  pgliteMaxConnections: number
  seedSampleData: boolean
  restartDelayMs: number
  processRuntime: ProcessRuntime
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
    // How the processes start: `bundle` runs each app's dist/main.mjs (what `pnpm build` makes:
    // `pnpm start` builds first), without tsx; `source` runs the TypeScript under tsx (a change
    // to the code is taken at the next start without a build).
    PROCESS_RUNTIME: oneOf(PROCESS_RUNTIMES, 'source'),
  },
  read: (env): SupervisorSection => ({
    pgliteDir: env.PGLITE_DIR,
    pglitePort: env.PGLITE_PORT,
    pgliteMaxConnections: env.PGLITE_MAX_CONNECTIONS,
    seedSampleData: env.SEED_SAMPLE_DATA,
    restartDelayMs: env.RESTART_DELAY_MS,
    processRuntime: env.PROCESS_RUNTIME,
  }),
})

import { defineFragment } from '../define-config.ts'
import { integer, optionalText, optionalUrl, text } from '../env-values.ts'

const shape = {
  // Full connection string of a Postgres with pgvector; takes precedence over DB_*. Unset, `pnpm
  // start` serves an embedded one and writes where it is (with its Redis and gateway) into
  // DATA_DIR/rag-platform.pid, where `pnpm eval` and `pnpm rag` find it.
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  // Parts of the connection, for platforms that hand them out separately.
  DB_HOST: optionalText(),
  DB_PORT: integer(5432, { min: 1, max: 65535 }),
  DB_USER: text('postgres'),
  DB_PASSWORD: optionalText(),
  DB_NAME: text('postgres'),
  // Connections per process; workers need few, the gateway a handful.
  DB_POOL_MAX: integer(10, { min: 1, max: 200 }),
  // Schema holding our tables, so several installations (or test runs) can share one database.
  DB_SCHEMA: text('public').refine((value) => /^[a-z_][a-z0-9_]{0,62}$/.test(value), {
    message: 'must be a lower-case SQL identifier (letters, digits, underscore)',
  }),
}

type DatabaseEnv = {
  DATABASE_URL: string | undefined
  DB_HOST: string | undefined
  DB_PORT: number
  DB_USER: string
  DB_PASSWORD: string | undefined
  DB_NAME: string
}

function connectionString(env: DatabaseEnv): string | undefined {
  if (env.DATABASE_URL) return env.DATABASE_URL
  if (!env.DB_HOST) return undefined
  const password = env.DB_PASSWORD ? `:${encodeURIComponent(env.DB_PASSWORD)}` : ''
  return `postgres://${encodeURIComponent(env.DB_USER)}${password}@${env.DB_HOST}:${env.DB_PORT}/${encodeURIComponent(env.DB_NAME)}`
}

export interface DatabaseSection {
  /** undefined means "embedded": the supervisor serves PGlite and hands its URL to every process. */
  url: string | undefined
  poolMax: number
  schema: string
}

/** For the supervisor and commands that can fall back to the embedded PGlite database. */
export const databaseOrEmbedded = defineFragment({
  shape,
  read: (env): DatabaseSection => ({
    url: connectionString(env),
    poolMax: env.DB_POOL_MAX,
    schema: env.DB_SCHEMA,
  }),
})

export interface RequiredDatabaseSection extends DatabaseSection {
  url: string
}

/** For processes that must be told where the database is (the supervisor does that for them). */
export const database = defineFragment({
  shape,
  check: (env, report) => {
    if (!connectionString(env)) {
      report(
        'DATABASE_URL',
        'is not set (nor DB_HOST), and no platform runs on DATA_DIR: start it (`pnpm start`, whose embedded database every command then finds) or point DATABASE_URL at a Postgres with pgvector, e.g. postgres://user@127.0.0.1:5432/rag',
      )
    }
  },
  read: (env): RequiredDatabaseSection => ({
    url: connectionString(env) ?? '',
    poolMax: env.DB_POOL_MAX,
    schema: env.DB_SCHEMA,
  }),
})

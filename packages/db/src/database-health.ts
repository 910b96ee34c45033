import type { Pool } from './create-pool.ts'

export interface ComponentHealth {
  ok: boolean
  version?: string
  error?: string
}

export interface DatabaseHealth {
  postgres: ComponentHealth
  pgvector: ComponentHealth
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

export async function checkDatabaseHealth(pool: Pool): Promise<DatabaseHealth> {
  try {
    const { rows } = await pool.query<{ version: string; vector: string | null }>(
      "SELECT current_setting('server_version') AS version, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector",
    )
    const row = rows[0]
    return {
      postgres: { ok: true, version: row?.version },
      pgvector: row?.vector
        ? { ok: true, version: row.vector }
        : { ok: false, error: 'the vector extension is not installed in this database' },
    }
  } catch (error) {
    return {
      postgres: { ok: false, error: message(error) },
      pgvector: { ok: false, error: 'database unreachable' },
    }
  }
}

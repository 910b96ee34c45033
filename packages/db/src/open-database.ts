import type { DatabaseSection, ModelsSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { createPool, type Pool } from './create-pool.ts'
import type { EmbeddingSpace } from './embedding-space.ts'
import { migrate } from './migrate.ts'

/** The vector space the configured embedding model writes into (null: keyword only). */
export function embeddingSpaceOf(models: Pick<ModelsSection, 'embedding'>): EmbeddingSpace | null {
  const { model, dim } = models.embedding
  return model ? { model, dim } : null
}

/**
 * How every process starts on the database: a pool in the configured schema, migrated, with the
 * embedding space checked against the configured model (a mismatch stops the process, naming it).
 */
export async function openDatabase({
  database,
  models,
  logger,
  url = database.url,
  max = database.poolMax,
}: {
  database: DatabaseSection
  models: Pick<ModelsSection, 'embedding'>
  logger: Logger
  /** Overrides database.url (the supervisor's embedded server). */
  url?: string
  max?: number
}): Promise<Pool> {
  if (!url) throw new Error('no database URL')
  const pool = createPool({ url, schema: database.schema, max, logger })
  try {
    await migrate(pool, { schema: database.schema, embedding: embeddingSpaceOf(models), logger })
  } catch (error) {
    await pool.end()
    throw error
  }
  return pool
}

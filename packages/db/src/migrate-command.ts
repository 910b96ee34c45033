import { migrateConfig, processEnvironment } from '@rag/config'
import { createLogger } from '@rag/log'
import { runMain } from '@rag/runtime'
import { createPool } from './create-pool.ts'
import { migrate } from './migrate.ts'
import { embeddingSpaceOf } from './open-database.ts'

// `pnpm migrate [--reset-embeddings]`: applies pending migrations (every process also does at start).
runMain(async () => {
  const config = migrateConfig.parse(processEnvironment())
  const logger = createLogger({ name: 'migrate', ...config.log })
  const pool = createPool({ url: config.database.url, schema: config.database.schema, max: 1, logger })
  try {
    const applied = await migrate(pool, {
      schema: config.database.schema,
      embedding: embeddingSpaceOf(config.models),
      resetEmbeddings: process.argv.includes('--reset-embeddings'),
      logger,
    })
    logger.info({ applied }, applied.length > 0 ? 'database migrated' : 'database already up to date')
  } finally {
    await pool.end()
  }
})

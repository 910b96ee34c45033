export { createPool, type Pool, type PoolClient, type PoolOptions, withTransaction } from './create-pool.ts'
export { type ComponentHealth, checkDatabaseHealth, type DatabaseHealth } from './database-health.ts'
export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './embedded-postgres.ts'
export { embeddingColumnType } from './embedding-column-type.ts'
export {
  type EmbeddingSpace,
  EmbeddingSpaceMismatchError,
  ensureEmbeddingSpace,
  readEmbeddingSpace,
} from './embedding-space.ts'
export {
  loadMigrations,
  type MigrateOptions,
  type Migration,
  migrate,
  PgvectorMissingError,
} from './migrate.ts'
export { embeddingSpaceOf, openDatabase } from './open-database.ts'
export { openReadReplica, type ReadFallback, type ReadReplica } from './read-replica.ts'
export { quoteIdentifier, sqlList } from './sql.ts'
export {
  createVectorIndexSql,
  VECTOR_INDEX_BUILD,
  VECTOR_INDEX_NAME,
  vectorIndexOptions,
} from './vector-index.ts'

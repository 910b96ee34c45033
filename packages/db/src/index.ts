export { createPool, type Pool, type PoolClient, type PoolOptions, withTransaction } from './create-pool.ts'
export { type ComponentHealth, checkDatabaseHealth, type DatabaseHealth } from './database-health.ts'
export {
  type EmbeddedPostgres,
  type EmbeddedPostgresOptions,
  startEmbeddedPostgres,
} from './embedded-postgres.ts'
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

import { existsSync } from 'node:fs'

export { ConfigError, defineFragment, defineProcessConfig, type Environment } from './define-config.ts'
export { embeddingCacheKey } from './embedding-cache-key.ts'
export { boolean, decimal, integer, list, oneOf, optionalText, optionalUrl, text } from './env-values.ts'
export { type ChunkingSection, chunkingDefaults } from './fragments/chunking.ts'
export type { DatabaseSection, RequiredDatabaseSection } from './fragments/database.ts'
export type { SupervisorSection } from './fragments/embedded.ts'
export type { GatewaySection } from './fragments/gateway.ts'
export { type GenerationSection, generationDefaults } from './fragments/generation.ts'
export { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './fragments/log.ts'
export {
  type EmbeddingSection,
  type ModelsSection,
  modelsDefaults,
  NO_MODEL,
  ONNX_DTYPES,
  type OnnxDtype,
} from './fragments/models.ts'
export type { ParsingSection } from './fragments/parsing.ts'
export type { ReadReplicaSection } from './fragments/read-replica.ts'
export { DEFAULT_REDIS_URL, type RedisSection } from './fragments/redis.ts'
export { type RetrievalSection, retrievalDefaults } from './fragments/retrieval.ts'
export { type ClaimGrant, parseClaimGrants, type SignInSection } from './fragments/sign-in.ts'
export type { SourcesSection } from './fragments/sources.ts'
export type { StorageSection } from './fragments/storage.ts'
export { type IngestionSettings, ingestionDefaults, ingestionSettingsOf } from './ingestion-settings.ts'
export { type EmbeddingRecipe, embeddingRecipe } from './model-presets.ts'
export {
  type DecoderArchitecture,
  type EmbedderPreset,
  type EncoderArchitecture,
  type EncoderPreset,
  findPreset,
  type LlmPreset,
  MODEL_PRESETS,
  type ModelPreset,
  type RerankerPreset,
} from './model-registry.ts'
export * from './processes.ts'
export {
  formatSentinelUrl,
  parseSentinelUrl,
  SENTINEL_PROTOCOL,
  type SentinelAddress,
} from './redis-sentinel-url.ts'

import type { Environment } from './define-config.ts'

let envFileRead = false

/**
 * The one place the process environment is read; everything else receives parsed config. A `.env`
 * in the working folder is read first (the environment wins over it; child processes inherit
 * both). Tests never read one: a developer's `.env` must not change what a test sees.
 */
export function processEnvironment(): Environment {
  if (!envFileRead && !process.env.VITEST && existsSync('.env')) process.loadEnvFile('.env')
  envFileRead = true
  return process.env
}

import { z } from 'zod'
import { type ChunkingSection, chunking } from './fragments/chunking.ts'
import { type ParsingSection, parsing } from './fragments/parsing.ts'
import { type StorageSection, storage } from './fragments/storage.ts'

/** What assembling the ingestion stages reads from configuration, the same in every process. */
export interface IngestionSettings {
  chunking: ChunkingSection
  storage: Pick<StorageSection, 'sectionsPerPart'>
  parsing: ParsingSection
}

const defaultsOf = <S>(fragment: { shape: z.ZodRawShape; read: (env: never) => S }): S =>
  fragment.read(z.object(fragment.shape).parse({}) as never)

/** The settings a process gets with no variables set: what tests and tools start from. */
export function ingestionDefaults(): IngestionSettings {
  return { chunking: defaultsOf(chunking), storage: defaultsOf(storage), parsing: defaultsOf(parsing) }
}

/** A process's ingestion settings: the sections its config has, the defaults for the rest. */
export function ingestionSettingsOf(config: Partial<IngestionSettings>): IngestionSettings {
  const defaults = ingestionDefaults()
  return {
    chunking: config.chunking ?? defaults.chunking,
    storage: config.storage ?? defaults.storage,
    parsing: config.parsing ?? defaults.parsing,
  }
}

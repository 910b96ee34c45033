import { z } from 'zod'
import { defineFragment } from '../define-config.ts'
import { integer } from '../env-values.ts'

export interface ChunkingSection {
  size: number
  overlap: number
  parentMaxChars: number
}

export const chunking = defineFragment({
  shape: {
    // Characters per search chunk: small enough to match precisely.
    CHUNK_SIZE: integer(500, { min: 50, max: 20000 }),
    // Characters repeated between neighbouring chunks so a sentence cut at a border is still found.
    CHUNK_OVERLAP: integer(100, { min: 0 }),
    // Largest parent section handed to the LLM; longer sections are split into several parents.
    PARENT_MAX_CHARS: integer(2000, { min: 100, max: 100000 }),
  },
  check: (env, report) => {
    if (env.CHUNK_OVERLAP >= env.CHUNK_SIZE) {
      report('CHUNK_OVERLAP', `must be smaller than CHUNK_SIZE (${env.CHUNK_SIZE}), got ${env.CHUNK_OVERLAP}`)
    }
    if (env.PARENT_MAX_CHARS < env.CHUNK_SIZE) {
      report(
        'PARENT_MAX_CHARS',
        `must be at least CHUNK_SIZE (${env.CHUNK_SIZE}), got ${env.PARENT_MAX_CHARS}`,
      )
    }
  },
  read: (env): ChunkingSection => ({
    size: env.CHUNK_SIZE,
    overlap: env.CHUNK_OVERLAP,
    parentMaxChars: env.PARENT_MAX_CHARS,
  }),
})

/** The settings with no variables set (tests and tools that must not depend on the environment). */
export const chunkingDefaults = (): ChunkingSection => chunking.read(z.object(chunking.shape).parse({}))

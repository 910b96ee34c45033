import { createHash } from 'node:crypto'
import { CHUNKER_VERSION } from '@rag/chunking'
import type { ChunkingSection, ModelsSection } from '@rag/config'
import type { Dataset } from '@rag/evaluation'

/**
 * The schema an evaluation corpus lives in: named after what shapes the index (the documents,
 * the chunker and its settings, the embedding model), so an unchanged corpus is found and reused, a changed one
 * gets a fresh schema, and the user's own schema is never written to.
 */
export function evalSchemaOf(
  dataset: Dataset,
  chunking: ChunkingSection,
  models: Pick<ModelsSection, 'embedding'>,
): string {
  const hash = createHash('sha256')
  hash.update(
    JSON.stringify([
      CHUNKER_VERSION,
      chunking.size,
      chunking.overlap,
      chunking.parentMaxChars,
      models.embedding,
    ]),
  )
  for (const doc of dataset.documents) {
    hash.update(doc.filename)
    hash.update(doc.data)
  }
  return `eval_${dataset.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30)}_${hash.digest('hex').slice(0, 12)}`
}

import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type IngestDeps, registerDocument } from '@rag/ingest'

/**
 * Sends data/sample through the normal upload path into the "samples" collection. Unchanged files
 * are no-ops, so this runs on every start and only the first one does any work.
 */
export async function seedSamples(
  deps: IngestDeps,
  { sampleDir, uploadDir, maxBytes }: { sampleDir: string; uploadDir: string; maxBytes: number },
) {
  const files = (await readdir(sampleDir).catch(() => [])).sort()
  const outcomes = []
  for (const filename of files) {
    const data = await readFile(join(sampleDir, filename))
    outcomes.push(
      await registerDocument(deps, { uploadDir, maxBytes }, { filename, data, collection: 'samples' }),
    )
  }
  const added = outcomes.filter((o) => o.action !== 'unchanged').length
  deps.logger.info(
    { files: files.length, added },
    added > 0 ? 'sample documents queued for ingestion' : 'sample documents already ingested',
  )
  return outcomes
}

import { readFile } from 'node:fs/promises'
import { DocumentParseError, type ParsedSection, parseDocument } from '@rag/parsers'
import { chunkJob, type JobHandler, type parseJob } from '@rag/queue'
import { currentDocument, setStage } from '../documents.ts'
import { finalizeDocument } from '../finalize-document.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import { saveParsedPart } from '../parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

export interface ParseStageOptions {
  /** Sections per part: the unit of fan-out for the later stages. */
  sectionsPerPart: number
  maxSectionChars: number
}

/**
 * ingest.parse: reads the stored original, cuts its sections into parts as they come (a 1,000-page
 * PDF is parsed a few pages at a time) and hands each part to chunking at once.
 */
export function createParseHandler(
  deps: IngestDeps,
  options: ParseStageOptions,
): JobHandler<typeof parseJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'parse', async () => {
      const document = await currentDocument(deps.pool, payload.documentId, payload.contentHash)
      if (!document) return { skipped: 'document deleted, replaced or failed' }
      await setStage(deps.pool, document.id, document.contentHash, 'parsing')
      const data = await readFile(document.storedPath).catch((error: unknown) => {
        throw new DocumentParseError(
          `the stored file is missing (${error instanceof Error ? error.message : error})`,
        )
      })
      let part = 0
      let batch: ParsedSection[] = []
      const flush = async () => {
        await saveParsedPart(deps.pool, document.id, document.contentHash, part, batch)
        await deps.producer.enqueueAgain(chunkJob, {
          documentId: document.id,
          contentHash: document.contentHash,
          part,
        })
        part += 1
        batch = []
      }
      for await (const section of parseDocument(data, document.filename, document.sourceType, {
        maxSectionChars: options.maxSectionChars,
      })) {
        batch.push(section)
        if (batch.length >= options.sectionsPerPart) await flush()
      }
      if (batch.length > 0) await flush()
      await deps.pool.query(
        'UPDATE documents SET parts_total = $3, updated_at = now() WHERE id = $1 AND content_hash = $2',
        [document.id, document.contentHash, part],
      )
      // The last part may already be stored by now; whoever sees everything done finalises.
      await finalizeDocument(deps.pool, document.id, document.contentHash)
      await context.progress(1)
      return { parts: part }
    })
}

import { access } from 'node:fs/promises'
import { DocumentParseError, type OcrOptions, type ParseLimits, type ParseSandbox } from '@rag/parsers'
import type { JobHandler, parseJob } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, refreshDocumentStatus, setPartsTotal, setStage } from '../repository/documents.ts'
import { finalizeDocument } from '../repository/finalize-document.ts'
import { saveParsedPart } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

export interface ParseStageOptions {
  /** Sections per part: the unit of fan-out for the later stages. */
  sectionsPerPart: number
  maxSectionChars: number
  /** Where files are parsed: child processes under a memory cap and a deadline. */
  sandbox: ParseSandbox
  limits?: Partial<ParseLimits>
  ocr?: OcrOptions
  /** Hands a parsed part on to the next step. */
  handOn: (part: PartRef) => Promise<void>
}

/**
 * ingest.parse: parses the stored original in the sandbox, cuts its sections into parts as they
 * come (a 1,000-page PDF is parsed a few pages at a time) and hands each part to chunking at once.
 * This process only waits on the sandbox, so its event loop, lock renewals and database work go
 * on whatever the file does to the parser.
 */
export function createParseHandler(
  deps: IngestDeps,
  options: ParseStageOptions,
): JobHandler<typeof parseJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'parse', async () => {
      const document = await currentDocument(deps.pool, payload)
      if (!document) return { skipped: 'document deleted, replaced or failed' }
      await setStage(deps.pool, payload, 'parsing')
      await access(document.storedPath).catch((error: unknown) => {
        throw new DocumentParseError(
          `the stored file is missing (${error instanceof Error ? error.message : error})`,
        )
      })
      const report = { peakBytes: 0 }
      let part = 0
      const batches = options.sandbox.parse(
        {
          path: document.storedPath,
          filename: document.filename,
          sourceType: document.sourceType,
          options: { maxSectionChars: options.maxSectionChars, limits: options.limits, ocr: options.ocr },
          batchSize: options.sectionsPerPart,
        },
        report,
      )
      for await (const sections of batches) {
        await saveParsedPart(deps.pool, { ...payload, part }, sections)
        await options.handOn({ documentId: document.id, contentHash: document.contentHash, part })
        part += 1
      }
      await setPartsTotal(deps.pool, payload, part)
      await refreshDocumentStatus(deps.pool, payload)
      // The last part may already be stored by now; whoever sees everything done finalises.
      await finalizeDocument(deps.pool, payload)
      await context.progress(1)
      return { parts: part, peakParseMiB: Math.round(report.peakBytes / 1048576) }
    })
}

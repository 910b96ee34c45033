import { tmpdir } from 'node:os'
import {
  DocumentParseError,
  type OcrOptions,
  type PageReading,
  readScannedPdfPage,
  removeLeftScratch,
} from '@rag/parsers'
import type { FinalFailure, JobHandler, ocrJob } from '@rag/queue'
import { describeFinalFailure } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, refreshDocumentStatus } from '../repository/documents.ts'
import { clearMissingPage, recordMissingPage } from '../repository/missing-pages.ts'
import { postgresOcrPageCache, pruneOcrPageCache } from '../repository/ocr-page-cache.ts'
import { recordOcrReadings } from '../repository/ocr-readings.ts'
import { getPart, saveOcrText } from '../repository/parts.ts'

export interface OcrStageOptions {
  ocr: OcrOptions
  /** Hands the page, read (or recorded as missing), on to chunking. */
  handOn: (part: PartRef) => Promise<void>
}

/**
 * ingest.ocr: one PDF page without a text layer read by OCR (pdftoppm and tesseract, processes of
 * their own under the memory cap and a time limit: this process only waits on them). A page that
 * cannot be read (too large, unreadable) is recorded as missing with the reason and the document
 * completes with its other pages; any other error is retried, and the page recorded as missing
 * only when its last attempt fails too.
 */
export function createOcrHandler(
  deps: IngestDeps,
  options: OcrStageOptions,
): JobHandler<typeof ocrJob.payload> {
  // Page images of OCR workers killed mid-page are removed once, when the next one starts; so are
  // cached readings nobody used for months.
  void removeLeftScratch(options.ocr.scratchDir ?? tmpdir())
  void pruneOcrPageCache(deps.pool).catch((error: unknown) =>
    deps.logger.warn({ err: error }, 'could not prune the OCR page cache'),
  )
  const cache = postgresOcrPageCache(deps.pool)
  return async (payload, context) => {
    const document = await currentDocument(deps.pool, payload)
    if (!document) return { skipped: 'document deleted, replaced or failed' }
    const record = await getPart(deps.pool, payload)
    if (!record) return { skipped: 'part gone' }
    const page = record.ocrPage
    if (record.stage === 'awaiting-ocr' && page !== null) {
      let reading: PageReading
      try {
        reading = await readScannedPdfPage(document.storedPath, page, options.ocr, cache)
      } catch (error) {
        if (!(error instanceof DocumentParseError) && !context.lastAttempt) throw error
        await pageMissing(deps, payload, page, error instanceof Error ? error.message : String(error))
        await options.handOn(payload)
        return { part: payload.part, page, missing: true }
      }
      // Read, but not reliably (a blurred scan, handwriting): listed as missing, not indexed as noise.
      const floor = options.ocr.minConfidence ?? 0
      if (reading.text && reading.confidence < floor) {
        await recordOcrReadings(deps.pool, payload, [
          { page, confidence: reading.confidence, direction: reading.direction },
        ])
        await pageMissing(
          deps,
          payload,
          page,
          `OCR could not read page ${page} reliably (confidence ${Math.round(reading.confidence)}%, below OCR_MIN_CONFIDENCE ${floor}%)`,
        )
        await options.handOn(payload)
        return { part: payload.part, page, missing: true, confidence: reading.confidence }
      }
      const sections = reading.text
        ? [
            {
              sourceId: `${document.filename}:p${page}`,
              heading: null,
              units: reading.paragraphs.map((paragraph) => paragraph.text),
              regions: reading.paragraphs.map((paragraph) => [{ page, ...paragraph.box }]),
              ocr: true,
              ocrReading: { page, confidence: reading.confidence, direction: reading.direction },
            },
          ]
        : []
      await saveOcrText(deps.pool, payload, sections)
      await clearMissingPage(deps.pool, payload, page)
      await refreshDocumentStatus(deps.pool, payload)
    }
    await options.handOn(payload)
    await context.progress(1)
    return { part: payload.part, page }
  }
}

/** The page becomes an empty part (so the document can complete) and a missing page with the reason. */
async function pageMissing(deps: IngestDeps, ref: PartRef, page: number, reason: string) {
  await recordMissingPage(deps.pool, ref, { page, reason })
  await saveOcrText(deps.pool, ref, [])
  await refreshDocumentStatus(deps.pool, ref)
}

/**
 * The OCR step's final-failure hook: a page whose job will not run again (its worker died under it
 * too often) is a missing page, not a failed document; the rest of the document goes on.
 */
export function missingPageOnFinalFailure(deps: IngestDeps, handOn: (part: PartRef) => Promise<void>) {
  return async (ref: PartRef, failure: FinalFailure) => {
    const record = await getPart(deps.pool, ref)
    if (record?.stage !== 'awaiting-ocr' || record.ocrPage === null) return
    await pageMissing(deps, ref, record.ocrPage, describeFinalFailure('ocr', 'page', failure))
    await handOn(ref)
  }
}

import { access } from 'node:fs/promises'
import {
  DocumentParseError,
  type OcrOptions,
  type ParsedSection,
  type ParseLimits,
  type ParseSandbox,
} from '@rag/parsers'
import type { JobHandler, parseJob } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, refreshDocumentStatus, setPartsTotal, setStage } from '../repository/documents.ts'
import { finalizeDocument } from '../repository/finalize-document.ts'
import { type MissingPage, recordMissingPage } from '../repository/missing-pages.ts'
import { saveOcrPart, saveParsedPart } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

export interface ParseStageOptions {
  /** Sections per part: the unit of fan-out for the later stages. */
  sectionsPerPart: number
  maxSectionChars: number
  /** Where files are parsed: child processes under a memory cap and a deadline. */
  sandbox: ParseSandbox
  limits?: Partial<ParseLimits>
  /** OCR (pages without a text layer become OCR jobs of their own, at most `maxPages` a document). */
  ocr?: OcrOptions & { maxPages: number }
  /** Hands a parsed part on to the next step. */
  handOn: (part: PartRef) => Promise<void>
  /** Hands a page waiting for OCR on to its OCR job. */
  handOnScanned: (part: PartRef) => Promise<void>
}

type Piece = { sections: ParsedSection[] } | { ocrPage: number } | { leftOut: MissingPage }

/**
 * A batch of sections as parts, in reading order: the runs of sections with text (one part each),
 * every page left for OCR (a part of its own, so it is read, retried and reported alone) and the
 * notes of pages read only in part (recorded with the missing pages, not parts).
 */
function splitScanned(sections: ParsedSection[]): Piece[] {
  const parts: Piece[] = []
  let run: ParsedSection[] = []
  for (const section of sections) {
    if (section.leftOut) {
      parts.push({ leftOut: section.leftOut })
      continue
    }
    if (section.ocrPage === undefined) {
      run.push(section)
      continue
    }
    if (run.length > 0) parts.push({ sections: run })
    run = []
    parts.push({ ocrPage: section.ocrPage })
  }
  if (run.length > 0) parts.push({ sections: run })
  return parts
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
      const scanned = { read: 0, skipped: 0, firstSkipped: 0 }
      const maxOcrPages = options.ocr?.maxPages ?? Number.POSITIVE_INFINITY
      const batches = options.sandbox.parse(
        {
          path: document.storedPath,
          filename: document.filename,
          sourceType: document.sourceType,
          options: {
            maxSectionChars: options.maxSectionChars,
            limits: options.limits,
            ocr: options.ocr && { ...options.ocr, deferPdfPages: true },
          },
          batchSize: options.sectionsPerPart,
        },
        report,
      )
      for await (const sections of batches) {
        for (const piece of splitScanned(sections)) {
          const ref = { documentId: document.id, contentHash: document.contentHash, part }
          if ('leftOut' in piece) {
            await recordMissingPage(deps.pool, payload, piece.leftOut)
            continue
          }
          if ('sections' in piece) {
            await saveParsedPart(deps.pool, ref, piece.sections)
            await options.handOn(ref)
          } else if (scanned.read < maxOcrPages) {
            scanned.read += 1
            await saveOcrPart(deps.pool, ref, piece.ocrPage)
            await options.handOnScanned(ref)
          } else {
            if (scanned.skipped === 0) scanned.firstSkipped = piece.ocrPage
            scanned.skipped += 1
            continue
          }
          part += 1
        }
      }
      if (scanned.skipped > 0)
        await recordMissingPage(deps.pool, payload, {
          page: scanned.firstSkipped,
          reason: `this page and ${scanned.skipped - 1} later pages without a text layer were not read: OCR reads at most ${maxOcrPages} pages of a document (OCR_MAX_PAGES)`,
        })
      await setPartsTotal(deps.pool, payload, part)
      await refreshDocumentStatus(deps.pool, payload)
      // The last part may already be stored by now; whoever sees everything done finalises.
      await finalizeDocument(deps.pool, payload)
      await context.progress(1)
      return { parts: part, ocrPages: scanned.read, peakParseMiB: Math.round(report.peakBytes / 1048576) }
    })
}

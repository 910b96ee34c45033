import { definePipeline, ingestionJobs } from '@rag/queue'
import type { IngestionContext } from './ingestion-context.ts'
import type { PartRef } from './repository/document-version.ts'
import type { PartStage } from './repository/parts.ts'
import { createChunkHandler } from './stages/chunk-stage.ts'
import { createEmbedHandler } from './stages/embed-stage.ts'
import { failDocumentOnFinalFailure } from './stages/fail-document-on-final-error.ts'
import { createOcrHandler, missingPageOnFinalFailure } from './stages/ocr-stage.ts'
import { createParseHandler } from './stages/parse-stage.ts'
import { createStoreHandler } from './stages/store-stage.ts'

export type IngestionStep = keyof typeof ingestionJobs

interface IngestionRoute {
  /** The step a part goes to once this one is done (null: the last). */
  next: IngestionStep | null
  /** The stage a part is at while it waits for this step (null: the parse, before there are parts): the reconciler resumes a part from it. */
  takes: PartStage | null
}

/** Hands a part on to `step` (re-enqueued: a re-index reuses the job ids). */
const handOnTo = (context: IngestionContext, step: IngestionStep) => async (part: PartRef) => {
  await context.producer.enqueueAgain(ingestionPipeline[step].job, part)
}

/** Hands a part on to the step after `step`. */
const handOnAfter = (context: IngestionContext, step: IngestionStep) => async (part: PartRef) => {
  const next = ingestionPipeline[step].next
  if (next) await handOnTo(context, next)(part)
}

/**
 * The ingestion pipeline, the one place its order and its pairing of job, handler and failure
 * hook are written: parse → chunk → embed → store, each part of a document on its own; a PDF
 * page without a text layer goes parse → ocr → chunk, a part of its own. The worker
 * processes, the in-process workers of tests and `pnpm eval`, the bench's baseline and the
 * reconciler all read it, so what is measured and tested is what production runs.
 */
export const ingestionPipeline = definePipeline<IngestionContext, IngestionRoute>()(ingestionJobs, {
  parse: {
    next: 'chunk',
    takes: null,
    handler: (context) =>
      createParseHandler(context, {
        sectionsPerPart: context.settings.storage.sectionsPerPart,
        maxSectionChars: context.settings.chunking.parentMaxChars,
        sandbox: context.sandbox(),
        limits: context.settings.parsing.limits,
        ocr: context.settings.parsing.ocr,
        handOn: handOnAfter(context, 'parse'),
        handOnScanned: handOnTo(context, 'ocr'),
      }),
    onFinalFailure: (context) => failDocumentOnFinalFailure(context.pool, 'parse'),
  },
  ocr: {
    next: 'chunk',
    takes: 'awaiting-ocr',
    handler: (context) =>
      createOcrHandler(context, {
        ocr: { ...context.settings.parsing.ocr, memoryMb: context.settings.parsing.sandbox.memoryMb },
        handOn: handOnAfter(context, 'ocr'),
      }),
    onFinalFailure: (context) => missingPageOnFinalFailure(context, handOnAfter(context, 'ocr')),
  },
  chunk: {
    next: 'embed',
    takes: 'parsed',
    handler: (context) =>
      createChunkHandler(context, { ...context.settings.chunking, handOn: handOnAfter(context, 'chunk') }),
    onFinalFailure: (context) => failDocumentOnFinalFailure(context.pool, 'chunk'),
  },
  embed: {
    next: 'store',
    takes: 'chunked',
    handler: (context) =>
      createEmbedHandler(context, {
        getEmbedder: () => context.getEmbedder(),
        handOn: handOnAfter(context, 'embed'),
      }),
    onFinalFailure: (context) => failDocumentOnFinalFailure(context.pool, 'embed'),
  },
  store: {
    next: null,
    takes: 'embedded',
    handler: (context) => createStoreHandler(context, { embeddingCacheKey: context.embeddingCacheKey }),
    onFinalFailure: (context) => failDocumentOnFinalFailure(context.pool, 'store'),
  },
})

/** The step a part at `stage` waits for (null: stored, nothing left). */
export function stepAfterPartStage(stage: PartStage): IngestionStep | null {
  const waiting = Object.entries(ingestionPipeline).find(([, step]) => step.takes === stage)
  return waiting ? (waiting[0] as IngestionStep) : null
}

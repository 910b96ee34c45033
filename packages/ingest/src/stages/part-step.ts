import type { chunkJob, JobContext, JobHandler } from '@rag/queue'
import type { IngestDeps } from '../ingest-deps.ts'
import type { PartRef } from '../repository/document-version.ts'
import { currentDocument, partMoved } from '../repository/documents.ts'
import { getPart, type PartRecord, type PartStage } from '../repository/parts.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/** A step's result as its job returns it (what the dashboard shows). */
type StepResult = Record<string, unknown>

export interface PartStep {
  /** The step's name, as the document's failure reason names it (`embed: …`). */
  name: string
  /** The stage a part must be at for this step's work; a part past it was done before (a retry). */
  from: PartStage
  /**
   * The work, which moves the part on (it knows what the part keeps); null when the document
   * went away meanwhile (failed or replaced) and nothing more is to be done.
   */
  work: (record: PartRecord, part: PartRef) => Promise<StepResult | null>
  /** What follows, whether the work ran now or before: hand the part on, or finish the document. */
  next: (part: PartRef) => Promise<StepResult | undefined>
}

/**
 * One protocol for the part steps (chunk, embed, store): skip a document gone or replaced and a
 * part gone; do the work when the part is where the step starts; one update of the document
 * after it (partMoved: its status moves on only when the last part leaves a stage); then what
 * follows, also on a retry whose work was already done; failures fail the document (last attempt,
 * or an error no retry fixes).
 */
/** The payload of every part step's job (chunk, embed and store share it). */
type PartPayload = typeof chunkJob.payload

export function partStep(deps: Pick<IngestDeps, 'pool'>, step: PartStep): JobHandler<PartPayload> {
  return async (payload, context: JobContext) =>
    failDocumentOnFinalError(deps.pool, payload, context, step.name, async () => {
      if (!(await currentDocument(deps.pool, payload))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, payload)
      if (!record) return { skipped: 'part gone' }
      let result: StepResult = {}
      if (record.stage === step.from) {
        const done = await step.work(record, payload)
        if (done === null) return { skipped: 'document failed or replaced' }
        result = done
        await partMoved(deps.pool, payload, step.from)
      }
      const after = await step.next(payload)
      await context.progress(1)
      return { part: payload.part, ...result, ...after }
    })
}

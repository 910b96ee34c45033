import type { Pool } from '@rag/db'
import { DocumentParseError } from '@rag/parsers'
import { describeFinalFailure, type FinalFailure, type JobContext, UnrecoverableError } from '@rag/queue'
import type { DocumentVersion } from '../repository/document-version.ts'
import { markFailed } from '../repository/documents.ts'

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * Runs a stage. An error retrying cannot fix (a corrupt file) fails the job at once and the
 * document with its reason; any other error is retried with backoff, and marks the document failed
 * only when the last attempt fails too, so no document is left in a stage forever.
 */
export async function failDocumentOnFinalError<T>(
  pool: Pool,
  { documentId, contentHash }: { documentId: string; contentHash: string },
  { lastAttempt }: Pick<JobContext, 'lastAttempt'>,
  stage: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const unrecoverable = error instanceof DocumentParseError || error instanceof UnrecoverableError
    if (unrecoverable || lastAttempt) {
      await markFailed(pool, { documentId, contentHash }, `${stage}: ${message(error)}`)
    }
    if (error instanceof DocumentParseError) throw new UnrecoverableError(error.message)
    throw error
  }
}

/**
 * A stage's final-failure hook: a job that will not run again fails its document, with the
 * reason. This covers what the handler itself never sees: a job whose worker died under it too
 * many times (BullMQ fails it as stalled on the next pick-up, before the handler runs), so the
 * reconciler does not start it over and over.
 */
export function failDocumentOnFinalFailure(pool: Pool, stage: string) {
  return async ({ documentId, contentHash }: DocumentVersion, failure: FinalFailure) => {
    await markFailed(pool, { documentId, contentHash }, describeFinalFailure(stage, 'document', failure))
  }
}

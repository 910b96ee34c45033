/** Why a job will not run again: its attempts used up, an unrecoverable error, or its worker lost too often. */
export interface FinalFailure {
  /**
   * The worker running it stopped (crashed, killed, out of memory) each time it had the job, so
   * BullMQ failed it as stalled, before any handler could say why.
   */
  stalled: boolean
  /** The error's message (BullMQ's own text for a stalled job). */
  message: string
}

// The one place BullMQ's wording for a job lost with its worker too many times is known.
const BULLMQ_STALLED = 'stalled more than allowable limit'

export function finalFailureOf(message: string): FinalFailure {
  return { stalled: message.includes(BULLMQ_STALLED), message }
}

/** What a user reads of a final failure at a stage, e.g. "parse: the parse worker stopped (…) each time it worked on this document". */
export function describeFinalFailure(stage: string, what: string, failure: FinalFailure): string {
  return failure.stalled
    ? `${stage}: the ${stage} worker stopped (crashed, killed or out of memory) each time it worked on this ${what}`
    : `${stage}: ${failure.message}`
}

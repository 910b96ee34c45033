import { createHash } from 'node:crypto'

/**
 * Where a watcher of a question stands: the bytes of the answer it has, a fingerprint of those
 * bytes (a retry that restarted the answer makes the same length mean other text) and the last
 * status it was told. An SSE client carries it in every event's `id:` and hands it back as
 * `Last-Event-ID` when it reconnects.
 */
export interface AnswerPosition {
  offset: number
  fingerprint: string
  status: string
}

export const fingerprintOf = (answer: Buffer) =>
  answer.length === 0 ? '0' : createHash('sha1').update(answer).digest('hex').slice(0, 12)

/** The answer bytes a watcher holds, with their fingerprint kept as it grows. */
export class HeldAnswer {
  private hash = createHash('sha1')
  length = 0
  fingerprint = '0'

  constructor(from?: { offset: number; fingerprint: string }) {
    if (from) Object.assign(this, { length: from.offset, fingerprint: from.fingerprint })
  }

  /** Whether the watcher's bytes are the first bytes of `answer` (a resumed watcher cannot append). */
  isPrefixOf(answer: Buffer) {
    return this.length <= answer.length && fingerprintOf(answer.subarray(0, this.length)) === this.fingerprint
  }

  /** Now holding all of `answer` (after catching up). */
  reset(answer: Buffer) {
    this.hash = createHash('sha1').update(answer)
    this.length = answer.length
    this.fingerprint = fingerprintOf(answer)
  }

  append(text: Buffer) {
    this.hash.update(text)
    this.length += text.length
    this.fingerprint = this.hash.copy().digest('hex').slice(0, 12)
  }
}

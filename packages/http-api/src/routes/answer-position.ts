import { createHash } from 'node:crypto'

/**
 * Where a client of GET /ask/:id/events stands, carried in every event's `id:` so a reconnecting
 * EventSource hands it back as `Last-Event-ID`: the bytes of the answer it has, a fingerprint of
 * those bytes (a retry that restarted the answer makes the same length mean other text) and the
 * last status it was sent.
 */
export interface AnswerPosition {
  offset: number
  fingerprint: string
  status: string
}

export const fingerprintOf = (answer: Buffer) =>
  answer.length === 0 ? '0' : createHash('sha1').update(answer).digest('hex').slice(0, 12)

export const formatPosition = ({ offset, fingerprint, status }: AnswerPosition) =>
  `${offset}.${fingerprint}.${status}`

/** A `Last-Event-ID` this server wrote, or undefined (absent or not ours: start from scratch). */
export function parsePosition(value: string | undefined): AnswerPosition | undefined {
  const match = value?.match(/^(\d{1,12})\.([0-9a-f]{1,12})\.([a-z]{1,20})$/)
  if (!match) return undefined
  return { offset: Number(match[1]), fingerprint: match[2] ?? '0', status: match[3] ?? '' }
}

/** The answer bytes a client holds, with their fingerprint kept as it grows. */
export class HeldAnswer {
  private hash = createHash('sha1')
  length = 0
  fingerprint = '0'

  constructor(from?: { offset: number; fingerprint: string }) {
    if (from) Object.assign(this, { length: from.offset, fingerprint: from.fingerprint })
  }

  /** Whether the client's bytes are the first bytes of `answer` (a resumed client cannot append). */
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

import type { AnswerPosition } from '@rag/questions'

// An SSE event's `id:` is the watcher's position in the answer (see AnswerPosition), so a
// reconnecting EventSource hands it back as `Last-Event-ID`: offset.fingerprint.status.

export const formatPosition = ({ offset, fingerprint, status }: AnswerPosition) =>
  `${offset}.${fingerprint}.${status}`

/** A `Last-Event-ID` this server wrote, or undefined (absent or not ours: start from scratch). */
export function parsePosition(value: string | undefined): AnswerPosition | undefined {
  const match = value?.match(/^(\d{1,12})\.([0-9a-f]{1,12})\.([a-z]{1,20})$/)
  if (!match) return undefined
  return { offset: Number(match[1]), fingerprint: match[2] ?? '0', status: match[3] ?? '' }
}

import { isFinished, type QuestionRecord } from '@rag/questions'
import {
  type Producer,
  type QuestionEvent,
  type QuestionEventSubscriber,
  readPartialAnswer,
} from '@rag/queue'

/** How often a quiet answer is looked at again (an end whose event was missed is noticed). */
const RECHECK_MS = 2000

export interface AnswerPiecesDeps {
  producer: Producer
  questionEvents: QuestionEventSubscriber
  queuePrefix: string
  /** The question as it stands (failing it first if it stalled). */
  current: (id: string) => Promise<QuestionRecord>
}

export type AnswerPiece = { type: 'text'; text: string } | { type: 'finished'; question: QuestionRecord }

/**
 * A question's answer as it is written, in pieces, then the finished question: for clients that
 * cannot resume (OpenAI-style streams), so a retry that restarts the answer is not replayed — the
 * pieces only ever go forward, and what was written before the restart stays.
 */
export async function* answerPieces(
  id: string,
  deps: AnswerPiecesDeps,
  signal?: AbortSignal,
): AsyncGenerator<AnswerPiece> {
  const pending: QuestionEvent[] = []
  let wake: (() => void) | undefined
  const unsubscribe = await deps.questionEvents.subscribe(id, (event) => {
    pending.push(event)
    wake?.()
  })
  const onAbort = () => wake?.()
  signal?.addEventListener('abort', onAbort)
  let sent = 0
  // Only the bytes of the answer past what was sent.
  const past = (answer: string) => {
    const bytes = Buffer.from(answer)
    if (bytes.length <= sent) return ''
    const text = bytes.subarray(sent).toString()
    sent = bytes.length
    return text
  }
  try {
    let question = await deps.current(id)
    const partial = past(await readPartialAnswer(deps.producer.redis, deps.queuePrefix, id))
    if (partial) yield { type: 'text', text: partial }
    while (!isFinished(question.status) && !signal?.aborted) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, RECHECK_MS)
        })
        wake = undefined
      }
      if (pending.length === 0) {
        question = await deps.current(id)
        continue
      }
      for (const event of pending.splice(0)) {
        if (event.type === 'token' && event.offset === sent) {
          sent += Buffer.byteLength(event.text)
          yield { type: 'text', text: event.text }
        } else if (event.type === 'token' && event.offset > sent) {
          // Pieces were missed: what is written so far has them.
          const text = past(await readPartialAnswer(deps.producer.redis, deps.queuePrefix, id))
          if (text) yield { type: 'text', text }
        } else if (event.type === 'finished') question = await deps.current(id)
      }
    }
    if (!signal?.aborted) yield { type: 'finished', question }
  } finally {
    signal?.removeEventListener('abort', onAbort)
    await unsubscribe()
  }
}

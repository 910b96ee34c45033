import { isFinished, type QuestionRecord } from '@rag/questions'
import {
  type Producer,
  type QuestionEvent,
  type QuestionEventSubscriber,
  readPartialAnswer,
} from '@rag/queue'
import type { SSEStreamingApi } from 'hono/streaming'
import { type AnswerPosition, formatPosition, HeldAnswer } from './answer-position.ts'
import { questionView } from './question-view.ts'

const KEEPALIVE_MS = 15_000
/** Reconnection delay advised to clients (the standard's default is a few seconds). */
const RETRY_MS = 1000

export interface FollowDeps {
  producer: Producer
  questionEvents: QuestionEventSubscriber
  queuePrefix: string
  /** The question as it stands (failing it first if it stalled); throws 404 when gone. */
  current: (id: string) => Promise<QuestionRecord>
}

/**
 * GET /ask/:id/events, per the HTML standard's event streams: `status` on every move (each once),
 * `token` as the answer is written, `restart` when a retry begins the answer again, and `done`
 * with the whole result. Every event's `id:` is the client's position (see AnswerPosition): a
 * reconnect with `Last-Event-ID` gets only what it lacks, or `restart` and the answer anew when
 * the answer it had is no longer the answer being written.
 */
export async function followQuestion(
  stream: SSEStreamingApi,
  id: string,
  deps: FollowDeps,
  resumeFrom?: AnswerPosition,
): Promise<void> {
  const pending: QuestionEvent[] = []
  let wake: (() => void) | undefined
  let closed = false
  stream.onAbort(() => {
    closed = true
    wake?.()
  })
  // Subscribe before reading the state, so nothing happens unseen in between.
  const unsubscribe = await deps.questionEvents.subscribe(id, (event) => {
    pending.push(event)
    wake?.()
  })
  let held = new HeldAnswer(resumeFrom)
  let sentStatus = resumeFrom?.status
  let first = true
  const send = async (event: string, data: unknown) => {
    await stream.writeSSE({
      event,
      data: JSON.stringify(data),
      id: formatPosition({ offset: held.length, fingerprint: held.fingerprint, status: sentStatus ?? '' }),
      ...(first ? { retry: RETRY_MS } : {}),
    })
    first = false
  }
  const sendStatus = async (status: string) => {
    if (status === sentStatus) return
    sentStatus = status
    await send('status', { status })
  }
  // Brings the client to the answer written so far: only the bytes past what it has, or, when
  // what it has is not a prefix of this answer (a retry restarted it), `restart` and all of it.
  const catchUp = async () => {
    const partial = Buffer.from(await readPartialAnswer(deps.producer.redis, deps.queuePrefix, id))
    if (held.length > 0 && !held.isPrefixOf(partial)) {
      held = new HeldAnswer()
      await send('restart', {})
    }
    if (partial.length <= held.length) return
    const text = partial.subarray(held.length).toString()
    held.reset(partial)
    await send('token', { text })
  }
  try {
    let question = await deps.current(id)
    if (!isFinished(question.status)) await sendStatus(question.status)
    if (question.status === 'generating' || held.length > 0) await catchUp()
    while (!closed && !isFinished(question.status)) {
      if (pending.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, KEEPALIVE_MS)
        })
        wake = undefined
      }
      if (pending.length === 0) {
        // Quiet: keep proxies from closing the stream, and notice an end whose event was missed.
        await stream.write(': keep-alive\n\n')
        question = await deps.current(id)
        continue
      }
      for (const event of pending.splice(0)) {
        if (event.type === 'status') await sendStatus(event.status)
        else if (event.type === 'token') {
          if (event.offset === held.length) {
            held.append(Buffer.from(event.text))
            await send('token', { text: event.text })
          } else if (event.offset > held.length) await catchUp()
        } else if (event.type === 'restart') {
          held = new HeldAnswer()
          await send('restart', {})
        } else question = await deps.current(id)
      }
    }
    if (!closed) {
      // The final status rides on `done` (the client reads it there); its id tells a reconnecting
      // client it has everything, so the route answers it 204 and standard clients stop.
      sentStatus = question.status
      await send('done', questionView(question))
    }
  } finally {
    await unsubscribe()
  }
}

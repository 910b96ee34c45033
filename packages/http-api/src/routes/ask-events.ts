import { isFinished, type QuestionRecord } from '@rag/questions'
import {
  type Producer,
  type QuestionEvent,
  type QuestionEventSubscriber,
  readPartialAnswer,
} from '@rag/queue'
import type { SSEStreamingApi } from 'hono/streaming'
import { questionView } from './question-view.ts'

const KEEPALIVE_MS = 15_000

export interface FollowDeps {
  producer: Producer
  questionEvents: QuestionEventSubscriber
  queuePrefix: string
  /** The question as it stands (failing it first if it stalled); throws 404 when gone. */
  current: (id: string) => Promise<QuestionRecord>
}

/**
 * GET /ask/:id/events: `status` on every move, `token` as the answer is written (a late client
 * first gets what is already written), `restart` when a retry begins the answer again, and `done`
 * with the whole result; comments keep the connection open while nothing happens.
 */
export async function followQuestion(stream: SSEStreamingApi, id: string, deps: FollowDeps): Promise<void> {
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
  const send = (event: string, data: unknown) => stream.writeSSE({ event, data: JSON.stringify(data) })
  // Bytes of the answer already sent: a late joiner first gets the partial answer, then
  // only tokens past it.
  let delivered = 0
  const catchUp = async () => {
    const partial = Buffer.from(await readPartialAnswer(deps.producer.redis, deps.queuePrefix, id))
    if (partial.length <= delivered) return
    await send('token', { text: partial.subarray(delivered).toString() })
    delivered = partial.length
  }
  try {
    let question = await deps.current(id)
    await send('status', { status: question.status })
    if (question.status === 'generating') await catchUp()
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
        if (event.type === 'status') await send('status', { status: event.status })
        else if (event.type === 'token') {
          if (event.offset === delivered) {
            await send('token', { text: event.text })
            delivered += Buffer.byteLength(event.text)
          } else if (event.offset > delivered) await catchUp()
        } else if (event.type === 'restart') {
          delivered = 0
          await send('restart', {})
        } else question = await deps.current(id)
      }
    }
    if (!closed) await send('done', questionView(question))
  } finally {
    await unsubscribe()
  }
}

import { type AnswerPosition, type WatchDeps, watchQuestion } from '@rag/questions'
import type { SSEStreamingApi } from 'hono/streaming'
import { formatPosition } from './answer-position.ts'
import { questionView } from './question-view.ts'

/** A quiet stream sends a comment this often, so proxies keep it open. */
const KEEPALIVE_MS = 15_000
/** Reconnection delay advised to clients (the standard's default is a few seconds). */
const RETRY_MS = 1000

/**
 * GET /ask/:id/events, per the HTML standard's event streams: the question's updates as
 * watchQuestion tells them — `status` on every move, `token` as the answer is written, `restart`
 * when a retry begins the answer again, and `done` with the whole result. Every event's `id:` is
 * the client's position: a reconnect with `Last-Event-ID` gets only what it lacks.
 */
export async function followQuestion(
  stream: SSEStreamingApi,
  id: string,
  deps: WatchDeps,
  resumeFrom?: AnswerPosition,
): Promise<void> {
  const closed = new AbortController()
  stream.onAbort(() => closed.abort())
  let first = true
  const send = async (event: string, data: unknown, position: AnswerPosition) => {
    await stream.writeSSE({
      event,
      data: JSON.stringify(data),
      id: formatPosition(position),
      ...(first ? { retry: RETRY_MS } : {}),
    })
    first = false
  }
  const updates = watchQuestion(id, deps, {
    from: resumeFrom,
    signal: closed.signal,
    recheckMs: KEEPALIVE_MS,
  })
  for await (const update of updates) {
    if (update.type === 'status') await send('status', { status: update.status }, update.position)
    else if (update.type === 'text') await send('token', { text: update.text }, update.position)
    else if (update.type === 'restart') await send('restart', {}, update.position)
    else if (update.type === 'idle') await stream.write(': keep-alive\n\n')
    // The final status rides on `done` (the client reads it there); its id tells a reconnecting
    // client it has everything, so the route answers it 204 and standard clients stop.
    else await send('done', questionView(update.question), update.position)
  }
}

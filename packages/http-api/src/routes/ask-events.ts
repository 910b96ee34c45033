import type { Principal } from '@rag/access'
import { type AnswerPosition, type WatchDeps, watchQuestion } from '@rag/questions'
import type { SSEStreamingApi } from 'hono/streaming'
import { REVOKED_MESSAGE } from '../access/revocations.ts'
import { formatPosition } from './answer-position.ts'
import { questionView } from './question-view.ts'
import type { QuestionWatchers } from './question-watchers.ts'

/** A quiet stream sends a comment this often, so proxies keep it open. */
const KEEPALIVE_MS = 15_000
/** Reconnection delay advised to clients (the standard's default is a few seconds). */
const RETRY_MS = 1000
/** A client gone for this long without another watcher coming (a reconnect takes RETRY_MS) has left. */
export const ABANDON_GRACE_MS = 3 * RETRY_MS

export interface FollowDeps extends WatchDeps {
  watchers: QuestionWatchers
  /** Ends a question nobody follows any more (its generation stops, freeing the LLM). */
  cancel: (id: string, reason: string) => Promise<unknown>
}

/**
 * GET /ask/:id/events, per the HTML standard's event streams: the question's updates as
 * watchQuestion tells them — `status` on every move, `queue` while it waits for the LLM,
 * `provisional` (the extractive answer, at once), `token` as the LLM writes its answer (which
 * replaces the provisional one), `restart` when a retry begins the answer again, and `done` with
 * the whole result. A client that leaves for good cancels the question (see ABANDON_GRACE_MS). Every event's `id:` is
 * the client's position: a reconnect with `Last-Event-ID` gets only what it lacks. When the
 * key is revoked (`revoked` aborts) the stream says so in a `revoked` event and ends.
 */
export async function followQuestion(
  stream: SSEStreamingApi,
  id: string,
  deps: FollowDeps,
  resumeFrom?: AnswerPosition,
  revoked: AbortSignal = new AbortController().signal,
  /** Who follows it (what questionView shows them). */
  viewer?: Principal,
): Promise<void> {
  const closed = new AbortController()
  stream.onAbort(() => closed.abort())
  revoked.addEventListener('abort', () => closed.abort(), { once: true })
  await deps.watchers.join(id)
  let finished = false
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
  try {
    for await (const update of updates) {
      if (update.type === 'status') await send('status', { status: update.status }, update.position)
      else if (update.type === 'text') await send('token', { text: update.text }, update.position)
      else if (update.type === 'restart') await send('restart', {}, update.position)
      else if (update.type === 'provisional')
        await send('provisional', questionView(update.question, viewer), update.position)
      else if (update.type === 'queue') await send('queue', { queue: update.queue }, update.position)
      else if (update.type === 'idle') {
        await stream.write(': keep-alive\n\n')
        await deps.watchers.refresh(id)
      } else {
        // The final status rides on `done` (the client reads it there); its id tells a reconnecting
        // client it has everything, so the route answers it 204 and standard clients stop.
        finished = true
        await send('done', questionView(update.question, viewer), update.position)
      }
    }
    if (revoked.aborted)
      await stream.writeSSE({ event: 'revoked', data: JSON.stringify({ message: REVOKED_MESSAGE }) })
  } finally {
    await deps.watchers.leave(id)
    // The client went away before the end: unless another (or it, reconnecting) follows the
    // question within the grace, nobody waits for the answer, and the LLM is freed for others.
    if (!finished && closed.signal.aborted)
      setTimeout(() => {
        deps.watchers
          .count(id)
          .then((count) => (count === 0 ? deps.cancel(id, 'no client follows it any more') : undefined))
          .catch(() => undefined)
      }, ABANDON_GRACE_MS).unref()
  }
}

import type { QuestionEvent, QuestionEventSubscriber } from '@rag/queue'
import { type AnswerPosition, HeldAnswer } from './answer-position.ts'
import { isFinished, type QuestionRecord } from './question-store.ts'

/** Where a question waiting for the LLM stands in line. */
export interface QueueSpot {
  position: number
  estimatedWaitSeconds: number
}

/** A question as a watcher reads it: its record, and its place in the LLM's line while it waits there. */
export type WatchedQuestion = QuestionRecord & { queue?: QueueSpot | null }

export interface WatchDeps {
  events: Pick<QuestionEventSubscriber, 'subscribe'>
  /** The answer the LLM has written so far (for a watcher joining mid-answer; empty when none). */
  partialAnswer: (id: string) => Promise<string>
  /** The question as it stands (failing it first if it stalled); throws when it is gone. */
  current: (id: string) => Promise<WatchedQuestion>
}

/** What a watcher is told, each with where it then stands. */
export type QuestionUpdate = (
  | { type: 'status'; status: string }
  /** The answer's next bytes, past what the watcher has. */
  | { type: 'text'; text: string }
  /** A retry begins the answer again: what the watcher has of it is void. */
  | { type: 'restart' }
  /** The extractive answer stands in for the LLM's (shown, marked, until the first token replaces it). */
  | { type: 'provisional'; question: WatchedQuestion }
  /** The question's place in the LLM's line changed (null: no longer waiting). */
  | { type: 'queue'; queue: QueueSpot | null }
  /** Nothing happened for a while (a stream may send a keep-alive). */
  | { type: 'idle' }
  | { type: 'finished'; question: WatchedQuestion }
) & { position: AnswerPosition }

export interface WatchOptions {
  /** Where the watcher stands already (a reconnecting client): only what it lacks follows. */
  from?: AnswerPosition
  /** Stops watching (the client went away): nothing more is told. */
  signal?: AbortSignal
  /** How long a quiet question waits before it is looked at again (an end whose event was missed). */
  recheckMs?: number
  /** How often a question waiting in the LLM's line is looked at (its place changes without events). */
  queueRecheckMs?: number
}

/**
 * A question followed until it finishes, the one way every watcher follows one (the SSE route,
 * the OpenAI route, `pnpm eval`): its status on every move (each once), its answer as it is
 * written (only the bytes past what the watcher has, or `restart` and the answer anew when what it
 * has is no longer the answer being written), then the finished question.
 */
export async function* watchQuestion(
  id: string,
  deps: WatchDeps,
  { from, signal, recheckMs = 2000, queueRecheckMs = 3000 }: WatchOptions = {},
): AsyncGenerator<QuestionUpdate> {
  const pending: QuestionEvent[] = []
  let wake: (() => void) | undefined
  const onAbort = () => wake?.()
  signal?.addEventListener('abort', onAbort)
  // Subscribe before reading the state, so nothing happens unseen in between.
  const unsubscribe = await deps.events.subscribe(id, (event) => {
    pending.push(event)
    wake?.()
  })
  let held = new HeldAnswer(from)
  let toldStatus = from?.status
  const position = (): AnswerPosition => ({
    offset: held.length,
    fingerprint: held.fingerprint,
    status: toldStatus ?? '',
  })
  // The updates that bring the watcher to the answer written so far.
  async function* catchUp(): AsyncGenerator<QuestionUpdate> {
    const partial = Buffer.from(await deps.partialAnswer(id))
    if (held.length > 0 && !held.isPrefixOf(partial)) {
      held = new HeldAnswer()
      yield { type: 'restart', position: position() }
    }
    if (partial.length <= held.length) return
    const text = partial.subarray(held.length).toString()
    held.reset(partial)
    yield { type: 'text', text, position: position() }
  }
  function* status(value: string): Generator<QuestionUpdate> {
    if (value === toldStatus) return
    toldStatus = value
    yield { type: 'status', status: value, position: position() }
  }
  let toldQueue: string | undefined
  function* queue(question: WatchedQuestion): Generator<QuestionUpdate> {
    const spot = isFinished(question.status) ? null : (question.queue ?? null)
    const key = JSON.stringify(spot)
    if (key === toldQueue || (toldQueue === undefined && spot === null)) return
    toldQueue = key
    yield { type: 'queue', queue: spot, position: position() }
  }
  try {
    let question = await deps.current(id)
    if (!isFinished(question.status)) yield* status(question.status)
    yield* queue(question)
    // A watcher joining while the LLM writes gets the stand-in first, then what is written.
    if (question.status === 'generating' && question.provisional && held.length === 0)
      yield { type: 'provisional', question, position: position() }
    if (question.status === 'generating' || held.length > 0) yield* catchUp()
    while (!signal?.aborted && !isFinished(question.status)) {
      if (pending.length === 0) {
        const waitingInLine = question.queue !== null && question.queue !== undefined
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, waitingInLine ? Math.min(recheckMs, queueRecheckMs) : recheckMs)
        })
        wake = undefined
      }
      if (signal?.aborted) break
      if (pending.length === 0) {
        yield { type: 'idle', position: position() }
        question = await deps.current(id)
        yield* queue(question)
        continue
      }
      for (const event of pending.splice(0)) {
        if (event.type === 'status') {
          yield* status(event.status)
          // Handed to the LLM: it may have to wait its turn.
          if (event.status === 'generating') {
            question = await deps.current(id)
            yield* queue(question)
          }
        } else if (event.type === 'token') {
          // Its first token: the LLM has it, the question no longer waits in line.
          if (toldQueue !== undefined && toldQueue !== 'null') {
            toldQueue = 'null'
            yield { type: 'queue', queue: null, position: position() }
          }
          if (event.offset === held.length) {
            held.append(Buffer.from(event.text))
            yield { type: 'text', text: event.text, position: position() }
          } else if (event.offset > held.length) yield* catchUp()
        } else if (event.type === 'restart') {
          held = new HeldAnswer()
          yield { type: 'restart', position: position() }
        } else if (event.type === 'provisional') {
          question = await deps.current(id)
          if (question.provisional) yield { type: 'provisional', question, position: position() }
        } else {
          question = await deps.current(id)
          yield* queue(question)
        }
      }
    }
    if (!signal?.aborted) {
      toldStatus = question.status
      yield { type: 'finished', question, position: position() }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort)
    await unsubscribe()
  }
}

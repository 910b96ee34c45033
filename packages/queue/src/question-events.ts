import type { Redis } from 'ioredis'
import { connectRedis, createRedisClient } from './redis-connection.ts'

/** What a question's watchers (SSE clients) hear while it is being answered. */
export type QuestionEvent =
  | { type: 'status'; status: string; attempt?: number }
  /**
   * A piece of the answer as the LLM writes it, at `offset` (UTF-8 bytes) in the answer so far:
   * a watcher that joined late reads the partial answer, then skips what it already has.
   * `restart`: a retry begins the answer again.
   */
  | { type: 'token'; text: string; offset: number }
  | { type: 'restart' }
  /** An extractive answer stands in for the LLM's until it writes one: read it from the store. */
  | { type: 'provisional' }
  /** The question reached done, failed or cancelled: read the full result from the store. */
  | { type: 'finished'; status: 'done' | 'failed' | 'cancelled' }

const channelOf = (prefix: string, questionId: string) => `${prefix}:question-events:${questionId}`
const partialKeyOf = (prefix: string, questionId: string) => `${prefix}:question-partial:${questionId}`
/** The partial answer is only for watchers joining mid-answer; Postgres keeps the finished one. */
const PARTIAL_TTL_SECONDS = 3600

// Appending and publishing in one script keeps offsets and publication order consistent.
const APPEND_AND_PUBLISH = `
local length = redis.call('APPEND', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('PUBLISH', KEYS[2], cjson.encode({type = 'token', text = ARGV[1], offset = length - string.len(ARGV[1])}))
return length`

/** Publishing side (workers), on the connection it is given. Never throws. */
export function questionEventPublisher(redis: Redis, prefix: string) {
  return async (questionId: string, event: QuestionEventInput): Promise<void> => {
    const channel = channelOf(prefix, questionId)
    const partial = partialKeyOf(prefix, questionId)
    // Events are a live view only (Postgres holds the state): a lost one must never fail a job.
    const sent =
      event.type === 'token'
        ? redis.eval(APPEND_AND_PUBLISH, 2, partial, channel, event.text, PARTIAL_TTL_SECONDS)
        : event.type === 'restart'
          ? redis.del(partial).then(() => redis.publish(channel, JSON.stringify(event)))
          : redis.publish(channel, JSON.stringify(event))
    await sent.catch(() => undefined)
  }
}
export type PublishQuestionEvent = ReturnType<typeof questionEventPublisher>
/** What a stage publishes: token offsets are assigned in Redis. */
export type QuestionEventInput = Exclude<QuestionEvent, { type: 'token' }> | { type: 'token'; text: string }

/** The answer written so far by the LLM (empty when none, or after it finished long ago). */
export async function readPartialAnswer(redis: Redis, prefix: string, questionId: string): Promise<string> {
  return (await redis.get(partialKeyOf(prefix, questionId))) ?? ''
}

export interface QuestionEventSubscriber {
  /** Starts listening (resolves once Redis confirmed the subscription); returns the way to stop. */
  subscribe(questionId: string, listener: (event: QuestionEvent) => void): Promise<() => Promise<void>>
  close(): Promise<void>
}

/** One subscriber connection per process, shared by every watcher. */
export async function createQuestionEventSubscriber(
  url: string,
  prefix: string,
): Promise<QuestionEventSubscriber> {
  // Reconnects forever, and ioredis subscribes again to every channel after a reconnect.
  const redis = createRedisClient(url, 'worker')
  await connectRedis(redis)
  const listeners = new Map<string, Set<(event: QuestionEvent) => void>>()
  redis.on('message', (channel: string, message: string) => {
    const set = listeners.get(channel)
    if (!set) return
    let event: QuestionEvent
    try {
      event = JSON.parse(message) as QuestionEvent
    } catch {
      return
    }
    for (const listener of set) listener(event)
  })
  return {
    async subscribe(questionId, listener) {
      const channel = channelOf(prefix, questionId)
      let set = listeners.get(channel)
      if (!set) {
        set = new Set()
        listeners.set(channel, set)
        await redis.subscribe(channel)
      }
      set.add(listener)
      return async () => {
        const current = listeners.get(channel)
        current?.delete(listener)
        if (current && current.size === 0) {
          listeners.delete(channel)
          await redis.unsubscribe(channel).catch(() => undefined)
        }
      }
    },
    async close() {
      listeners.clear()
      redis.disconnect()
    },
  }
}

import type { Redis } from 'ioredis'
import { createRedisClient } from './redis-connection.ts'

/** What a question's watchers (SSE clients) hear while it is being answered. */
export type QuestionEvent =
  | { type: 'status'; status: string; attempt?: number }
  /** A piece of the answer as the LLM writes it. `restart`: a retry begins the answer again. */
  | { type: 'token'; text: string }
  | { type: 'restart' }
  /** The question reached done or failed: read the full result from the store. */
  | { type: 'finished'; status: 'done' | 'failed' }

const channelOf = (prefix: string, questionId: string) => `${prefix}:question-events:${questionId}`

/** Publishing side (workers): fire-and-forget on the connection it is given. */
export function questionEventPublisher(redis: Redis, prefix: string) {
  return async (questionId: string, event: QuestionEvent): Promise<void> => {
    // Events are a live view only (Postgres holds the state): a lost one must never fail a job.
    await redis.publish(channelOf(prefix, questionId), JSON.stringify(event)).catch(() => undefined)
  }
}
export type PublishQuestionEvent = ReturnType<typeof questionEventPublisher>

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
  await redis.connect()
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

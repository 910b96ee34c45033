import type { Redis } from 'ioredis'

/** A watcher's mark lives this long unless refreshed (a gateway that died leaves none behind for long). */
const MARK_SECONDS = 120

/**
 * Who follows a question's event stream, counted in Redis so every gateway replica sees the same
 * count: when the last watcher leaves and none comes back within the reconnection grace, nobody is
 * waiting for the answer any more.
 */
export function questionWatchers(redis: Redis, prefix: string) {
  const key = (id: string) => `${prefix}:question-watchers:${id}`
  return {
    async join(id: string): Promise<void> {
      await redis.multi().incr(key(id)).expire(key(id), MARK_SECONDS).exec()
    },
    async refresh(id: string): Promise<void> {
      await redis.expire(key(id), MARK_SECONDS)
    },
    async leave(id: string): Promise<void> {
      await redis.decr(key(id))
    },
    async count(id: string): Promise<number> {
      return Math.max(0, Number((await redis.get(key(id))) ?? 0))
    },
  }
}
export type QuestionWatchers = ReturnType<typeof questionWatchers>

import { defineFragment } from '../define-config.ts'
import { optionalUrl, text } from '../env-values.ts'

const shape = {
  // Redis for the BullMQ queues. Unset: a local Redis on 6379, or one the supervisor starts.
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  // Prefix of every queue key, so several installations (or test runs) can share one Redis.
  QUEUE_PREFIX: text('rag').refine((value) => /^[A-Za-z0-9_-]+$/.test(value), {
    message: 'must contain only letters, digits, "_" and "-"',
  }),
}

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379'

export interface RedisSection {
  url: string
  /** Whether the URL was given, or is the local default the supervisor may replace. */
  explicit: boolean
  prefix: string
}

export const redis = defineFragment({
  shape,
  read: (env): RedisSection => ({
    url: env.REDIS_URL ?? DEFAULT_REDIS_URL,
    explicit: env.REDIS_URL !== undefined,
    prefix: env.QUEUE_PREFIX,
  }),
})

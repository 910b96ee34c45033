import { defineFragment } from '../define-config.ts'
import { list, optionalText, optionalUrl, text } from '../env-values.ts'
import { formatSentinelUrl, parseSentinelUrl, SENTINEL_PROTOCOL } from '../redis-sentinel-url.ts'

const redisUrl = optionalUrl(['redis:', 'rediss:'])

const shape = {
  // Redis for the BullMQ queues. Unset: a local Redis on 6379, or one the supervisor starts.
  // (Also takes the redis-sentinel:// address the two settings below make.)
  REDIS_URL: optionalText().refine(
    (raw) =>
      raw === undefined ||
      (raw.startsWith(SENTINEL_PROTOCOL) ? !!parseSentinelUrl(raw) : redisUrl.safeParse(raw).success),
    { message: 'must be a URL starting with redis:// or rediss:// (or redis-sentinel://host:port,…/name)' },
  ),
  // Redis behind Sentinel (no single point of failure): the sentinels as host:port, comma-separated,
  // and the name they monitor the primary by. Instead of REDIS_URL.
  REDIS_SENTINELS: list(),
  REDIS_SENTINEL_NAME: text(''),
  // The primary's password (with Sentinel; with REDIS_URL it is in the URL).
  REDIS_PASSWORD: optionalText(),
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
  check: (env, report) => {
    if (env.REDIS_SENTINELS.length > 0 && !env.REDIS_SENTINEL_NAME)
      report(
        'REDIS_SENTINEL_NAME',
        'is needed with REDIS_SENTINELS: the name the sentinels monitor the primary by',
      )
    if (env.REDIS_SENTINEL_NAME && env.REDIS_SENTINELS.length === 0)
      report(
        'REDIS_SENTINELS',
        'is needed with REDIS_SENTINEL_NAME: host:port of each sentinel, comma-separated',
      )
    if (env.REDIS_SENTINELS.length > 0 && env.REDIS_URL)
      report('REDIS_URL', 'is set together with REDIS_SENTINELS: use one or the other')
    if (
      env.REDIS_SENTINELS.length > 0 &&
      env.REDIS_SENTINEL_NAME &&
      !parseSentinelUrl(formatSentinelUrl(env.REDIS_SENTINELS, env.REDIS_SENTINEL_NAME))
    )
      report('REDIS_SENTINELS', `must be host:port entries, got ${env.REDIS_SENTINELS.join(',')}`)
  },
  read: (env): RedisSection => {
    const sentinel =
      env.REDIS_SENTINELS.length > 0
        ? formatSentinelUrl(env.REDIS_SENTINELS, env.REDIS_SENTINEL_NAME, env.REDIS_PASSWORD)
        : undefined
    const url = sentinel ?? env.REDIS_URL
    return { url: url ?? DEFAULT_REDIS_URL, explicit: url !== undefined, prefix: env.QUEUE_PREFIX }
  },
})

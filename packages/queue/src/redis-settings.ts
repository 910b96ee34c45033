import type { Redis } from 'ioredis'

/**
 * What BullMQ needs of the Redis it runs on, as it says itself: never evicting a key (a job
 * evicted under memory pressure is a job lost mid-pipeline), and, for the queue to survive a
 * restart of Redis, an append-only file. Postgres is the source of truth, so without persistence
 * nothing is lost for good (the reconcilers start lost work again), but every restart redoes it.
 */
export interface RedisSettingProblem {
  setting: 'maxmemory-policy' | 'appendonly'
  value: string
  message: string
}

/** The settings that fall short; none when they are right or CONFIG is not allowed (managed Redis). */
export async function checkRedisSettings(redis: Redis): Promise<RedisSettingProblem[]> {
  const read = async (name: string) => {
    const answer = (await redis.config('GET', name).catch(() => null)) as string[] | null
    return answer?.[1]
  }
  const [policy, appendOnly] = await Promise.all([read('maxmemory-policy'), read('appendonly')])
  const problems: RedisSettingProblem[] = []
  if (policy !== undefined && policy !== 'noeviction')
    problems.push({
      setting: 'maxmemory-policy',
      value: policy,
      message: `Redis maxmemory-policy is ${policy}: BullMQ needs noeviction (an evicted job is lost mid-pipeline); set \`maxmemory-policy noeviction\``,
    })
  if (appendOnly === 'no')
    problems.push({
      setting: 'appendonly',
      value: appendOnly,
      message:
        'Redis appendonly is no: a Redis restart drops every queued job (the reconcilers start them again from Postgres, redoing the work); set `appendonly yes` to keep them',
    })
  return problems
}

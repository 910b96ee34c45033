import { spawn } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import type { RedisSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { RedisUnavailableError, waitForRedis } from '@rag/queue'
import { freePort } from '@rag/runtime'

export interface LocalRedis {
  url: string
  /**
   * What the children are told of it: nothing when the environment named it (REDIS_URL, or
   * REDIS_SENTINELS with REDIS_SENTINEL_NAME: the children read the same settings; adding REDIS_URL
   * beside sentinels would be a contradiction they refuse), else the address found or started.
   */
  childEnv: Record<string, string>
  close(): Promise<void>
}

/**
 * REDIS_URL when given; else a Redis already on 6379; else a redis-server from PATH on a free port
 * (stopped with the supervisor); else an error that says how to get one.
 */
export async function resolveRedis(
  redis: RedisSection,
  {
    dataDir,
    logger,
    command = 'redis-server',
  }: {
    dataDir: string
    logger: Logger
    /** The server binary to start when no Redis answers (tests name one that does not exist). */
    command?: string
  },
) {
  if (redis.explicit) {
    await waitForRedis(redis.url)
    return { url: redis.url, childEnv: {}, close: async () => undefined } satisfies LocalRedis
  }
  try {
    await waitForRedis(redis.url, 1000)
    return {
      url: redis.url,
      childEnv: { REDIS_URL: redis.url },
      close: async () => undefined,
    } satisfies LocalRedis
  } catch {
    logger.info('no Redis on 6379: starting redis-server')
  }
  const port = await freePort()
  const dir = `${dataDir}/redis`
  await mkdir(dir, { recursive: true })
  const child = spawn(
    command,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes'],
    {
      stdio: 'ignore',
    },
  )
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (error) =>
      reject(
        new RedisUnavailableError(
          redis.url,
          `${error.message}: no Redis is running and redis-server is not installed`,
        ),
      ),
    )
  })
  const url = `redis://127.0.0.1:${port}`
  const deadline = Date.now() + 10000
  for (;;) {
    const up = await Promise.race([
      waitForRedis(url, 500).then(
        () => true,
        () => false,
      ),
      failed,
    ])
    if (up) break
    if (Date.now() > deadline) throw new RedisUnavailableError(url, 'redis-server did not start within 10 s')
  }
  logger.info({ url }, 'started redis-server')
  return {
    url,
    childEnv: { REDIS_URL: url },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  } satisfies LocalRedis
}

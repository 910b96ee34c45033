import { connectRedis, createRedisClient } from './redis-connection.ts'

/**
 * Revoked keys and ended sign-ins, told to every gateway replica at once, so a stream opened on
 * one replica ends when the key is revoked on another. A hint only: Postgres holds the truth and
 * every request (and an open stream, now and then) checks it there.
 */
export interface RevocationChannel {
  publish(credential: string): Promise<void>
  /** Hears every credential revoked from now on (anywhere). */
  listen(listener: (credential: string) => void): void
  close(): Promise<void>
}

const channelOf = (prefix: string) => `${prefix}:access:revoked`

export async function createRevocationChannel(url: string, prefix: string): Promise<RevocationChannel> {
  const subscriber = createRedisClient(url, 'worker')
  const publisher = createRedisClient(url, 'worker')
  await Promise.all([connectRedis(subscriber), connectRedis(publisher)])
  const listeners = new Set<(credential: string) => void>()
  subscriber.on('message', (_channel: string, credential: string) => {
    for (const listener of listeners) listener(credential)
  })
  // ioredis subscribes again after a reconnect.
  await subscriber.subscribe(channelOf(prefix))
  return {
    async publish(credential) {
      await publisher.publish(channelOf(prefix), credential).catch(() => undefined)
    },
    listen(listener) {
      listeners.add(listener)
    },
    async close() {
      listeners.clear()
      subscriber.disconnect()
      publisher.disconnect()
    },
  }
}

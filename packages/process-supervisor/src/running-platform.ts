import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { LOCK_FILE, type PlatformAddresses, parseHolder } from './instance-lock.ts'
import { isAlive } from './is-alive.ts'

/** The platform `pnpm start` runs on this data folder, and where it is; null when none runs. */
export async function readRunningPlatform(
  dataDir: string,
): Promise<({ pid: number } & PlatformAddresses) | null> {
  const holder = parseHolder(await readFile(join(dataDir, LOCK_FILE), 'utf8').catch(() => ''))
  return holder && isAlive(holder.pid) ? holder : null
}

/**
 * The environment a command (`pnpm eval`, `pnpm bench`, `pnpm rag`) runs with: what it was given,
 * and, for what it leaves unset, the running platform's own database, queues and gateway — so the
 * embedded default (a PGlite and a Redis on ports of their own) works for every command as for
 * `pnpm start`. `used` names what was taken, for the command to say so.
 */
export async function withRunningPlatform(
  env: Record<string, string | undefined>,
  dataDir: string,
): Promise<{ env: Record<string, string | undefined>; used: string[] }> {
  const running = await readRunningPlatform(dataDir)
  if (!running) return { env, used: [] }
  const filled = { ...env }
  const used: string[] = []
  const fill = (name: string, value: string | undefined, unlessSet: string[] = []) => {
    if (value === undefined || [name, ...unlessSet].some((set) => env[set])) return
    filled[name] = value
    used.push(name)
  }
  fill('DATABASE_URL', running.databaseUrl, ['DB_HOST'])
  fill('REDIS_URL', running.redisUrl, ['REDIS_SENTINELS'])
  fill('GATEWAY_URL', running.gatewayUrl)
  return { env: filled, used }
}

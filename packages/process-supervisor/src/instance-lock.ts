import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isAlive } from './is-alive.ts'

/** Another `pnpm start` runs on the same data folder: said as it is, without a stack trace. */
export class AlreadyRunningError extends Error {
  readonly userFacing = true
  constructor(message: string) {
    super(message)
    this.name = 'AlreadyRunningError'
  }
}

export const LOCK_FILE = 'rag-platform.pid'

/** Where the running platform can be reached: what other commands on its data folder connect to. */
export interface PlatformAddresses {
  databaseUrl?: string
  redisUrl?: string
  gatewayUrl?: string
}

export interface DataDirClaim {
  /** Writes where its database, queues and gateway are into the claim, for `pnpm eval`, bench and rag. */
  announce(addresses: PlatformAddresses): Promise<void>
  release(): Promise<void>
}

/**
 * Claims a data folder for this process: a second `pnpm start` on it would open the same embedded
 * database and join the first one's queues (its gateway crash-looping on the taken port while it
 * said "ready"). The lock file holds the holder's pid: a live holder refuses the claim, naming it;
 * one whose process is gone (killed, the machine restarted) is taken over.
 */
export async function claimDataDir(dir: string): Promise<DataDirClaim> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, LOCK_FILE)
  const holder = { pid: process.pid, startedAt: new Date().toISOString() }
  const ours = async () => {
    const current = parseHolder(await readFile(path, 'utf8').catch(() => ''))
    return current?.pid === holder.pid && current.startedAt === holder.startedAt
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(path, JSON.stringify(holder), { flag: 'wx' })
      return {
        async announce(addresses) {
          if (await ours()) await writeFile(path, JSON.stringify({ ...holder, ...addresses }))
        },
        async release() {
          // Only our own claim: a later holder's file is not ours to remove.
          if (await ours()) await rm(path, { force: true })
        },
      }
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error
      const holder = parseHolder(await readFile(path, 'utf8').catch(() => ''))
      if (holder && holder.pid !== process.pid && isAlive(holder.pid))
        throw new AlreadyRunningError(
          `the platform already runs on ${dir} (pid ${holder.pid}, started ${holder.startedAt}): stop it first (Ctrl-C in its terminal, or kill ${holder.pid}), or start this one with another DATA_DIR and GATEWAY_PORT`,
        )
      // Its holder is gone: the claim is free.
      await rm(path, { force: true })
    }
  }
  throw new Error(`could not claim ${dir} (${path} keeps reappearing)`)
}

/** The claim's holder and what it announced; null for a file that is not a claim. */
export function parseHolder(text: string): ({ pid: number; startedAt: string } & PlatformAddresses) | null {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>
    if (typeof parsed.pid !== 'number') return null
    const address = (name: string) => (typeof parsed[name] === 'string' ? { [name]: parsed[name] } : {})
    return {
      pid: parsed.pid,
      startedAt: String(parsed.startedAt),
      ...address('databaseUrl'),
      ...address('redisUrl'),
      ...address('gatewayUrl'),
    }
  } catch {
    return null
  }
}

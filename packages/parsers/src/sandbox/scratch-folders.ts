import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'

/** A parse's scratch folder: rag-parse-<pid of the parse worker>-<random>. */
export const SCRATCH_PREFIX = `rag-parse-${process.pid}-`

const OWNED = /^rag-parse-(\d+)-/
/** Scratch folders of the OCR before parses had an owner: removed once they are this old. */
const UNOWNED = /^rag-ocr-/
const UNOWNED_AFTER_MS = 24 * 3600 * 1000

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, as someone else's.
    return (error as { code?: string }).code === 'EPERM'
  }
}

/**
 * Removes what parses of processes that are gone left in `dir` (a worker killed with its children
 * never removed their copies of the users' documents). A live worker's folders are left alone.
 */
export async function removeLeftScratch(dir: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(dir).catch(() => [])) {
    const owner = OWNED.exec(name)?.[1]
    const left =
      (owner !== undefined && Number(owner) !== process.pid && !alive(Number(owner))) ||
      (UNOWNED.test(name) &&
        Date.now() - ((await stat(join(dir, name)).catch(() => null))?.mtimeMs ?? Date.now()) >
          UNOWNED_AFTER_MS)
    if (!left) continue
    await rm(join(dir, name), { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}

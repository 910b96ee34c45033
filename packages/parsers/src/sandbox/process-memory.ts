import { readFile } from 'node:fs/promises'

const PAGE_BYTES = 4096

/** Resident memory of a process in bytes (Linux /proc), or null where that cannot be read. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'utf8')
    const pages = Number(statm.split(' ')[1])
    return Number.isFinite(pages) ? pages * PAGE_BYTES : null
  } catch {
    return null
  }
}

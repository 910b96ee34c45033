import { readdir, readFile } from 'node:fs/promises'

/** Resident memory (MiB) of every process whose command line matches, by pid (Linux /proc). */
export async function residentByCommand(match: RegExp): Promise<Map<number, number>> {
  const found = new Map<number, number>()
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue
    const command = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')
    if (!match.test(command.replaceAll('\0', ' '))) continue
    const status = await readFile(`/proc/${entry}/status`, 'utf8').catch(() => '')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    found.set(Number(entry), Math.round(kb / 1024))
  }
  return found
}

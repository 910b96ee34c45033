import { readdir, readFile } from 'node:fs/promises'

async function highWaterMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null)
  const kb = status ? /VmHWM:\s+(\d+)/.exec(status)?.[1] : undefined
  return kb === undefined ? null : Math.round(Number(kb) / 1024)
}

/**
 * The peak resident memory of each supervised worker over the whole run, across restarts: every
 * pid a worker had is sampled (its high-water mark) while it lives, so a worker that ran out of
 * memory and came back still reports the peak of the process that died, and a worker never seen
 * running says so instead of reporting 0 MB.
 */
export function trackPeakMemory(supervisor: { pid(name: string): number | undefined }, names: string[]) {
  const peaks = new Map<string, { mb: number; pids: Set<number> }>(
    names.map((name) => [name, { mb: 0, pids: new Set() }]),
  )
  const sample = async () => {
    for (const name of names) {
      const pid = supervisor.pid(name)
      const entry = peaks.get(name)
      if (!pid || !entry) continue
      const mb = await highWaterMb(pid)
      if (mb === null) continue
      entry.pids.add(pid)
      entry.mb = Math.max(entry.mb, mb)
    }
  }
  const timer = setInterval(() => void sample(), 250)
  timer.unref()
  return {
    /** Stops sampling; one line per worker: `name 935 MB` (`, 2 processes` after a restart). */
    async stop(): Promise<string[]> {
      clearInterval(timer)
      await sample()
      return names.map((name) => {
        const entry = peaks.get(name)
        if (!entry || entry.pids.size === 0) return `${name} never seen running`
        return `${name} ${entry.mb} MB${entry.pids.size > 1 ? ` (${entry.pids.size} processes)` : ''}`
      })
    },
  }
}

/**
 * The peak resident memory (high-water mark) of every process kind, each a command-line pattern,
 * sampled every 250 ms while it runs: short-lived helpers (a tesseract reading one page) are seen
 * by their own high-water mark, not by their size at the moment of the sample.
 */
export function trackPeaksByCommand(kinds: Record<string, RegExp>) {
  const peaks = new Map(Object.keys(kinds).map((kind) => [kind, { mb: 0, processes: new Set<number>() }]))
  const sample = async () => {
    for (const entry of await readdir('/proc').catch(() => [])) {
      if (!/^\d+$/.test(entry)) continue
      const command = (await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' ')
      const kind = Object.entries(kinds).find(([, match]) => match.test(command))?.[0]
      const peak = kind === undefined ? undefined : peaks.get(kind)
      if (!peak) continue
      const mb = await highWaterMb(Number(entry))
      if (mb === null) continue
      peak.processes.add(Number(entry))
      peak.mb = Math.max(peak.mb, mb)
    }
  }
  const timer = setInterval(() => void sample(), 250)
  timer.unref()
  return {
    /** Stops sampling; `kind 412 MiB (37 processes)` per kind, or `kind: none seen`. */
    async stop(): Promise<string[]> {
      clearInterval(timer)
      return [...peaks].map(([kind, { mb, processes }]) =>
        processes.size === 0 ? `${kind}: none seen` : `${kind} ${mb} MiB (${processes.size} processes)`,
      )
    },
  }
}

/** The process kinds of ingestion whose memory a bench reports: workers, parse children, OCR helpers. */
export const INGESTION_PROCESS_KINDS: Record<string, RegExp> = {
  'worker-parse': /worker\/(src|dist)\/main\.(ts|mjs) worker-parse\b/,
  'worker-ocr': /worker\/(src|dist)\/main\.(ts|mjs) worker-ocr\b/,
  'parse child': /parse-child/,
  pdfinfo: /^(timeout \S+ )?pdfinfo /,
  pdftoppm: /^(timeout \S+ )?pdftoppm /,
  tesseract: /^(timeout \S+ )?tesseract /,
  tiffsplit: /^(timeout \S+ )?tiffsplit /,
}

/** Prints each process kind's peak against the parse memory cap. */
export async function printPeaks(memory: { stop(): Promise<string[]> }, capMb: number) {
  console.log(`peak RSS by process kind (the cap, PARSE_MEMORY_MB: ${capMb} MiB):`)
  for (const line of await memory.stop()) console.log(`  ${line}`)
}

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_OCR } from '../ocr.ts'
import { DocumentParseError, type ParsedSection } from '../parsed-section.ts'
import { parseDeadline } from './parse-deadline.ts'
import { residentBytes } from './process-memory.ts'
import { type ChildEntry, PARSE_CHILD, SandboxChild } from './sandbox-child.ts'
import type { ParseRequest } from './sandbox-protocol.ts'
import { removeLeftScratch, SCRATCH_PREFIX } from './scratch-folders.ts'

export interface SandboxBudget {
  /** Resident memory a parse may use, in MiB; past it the parse is stopped and the file failed. */
  memoryMb: number
  /** Wall-clock time one parse may take. */
  timeoutMs: number
  /** An idle child process is ended after this long (its memory goes back to the machine). */
  idleMs?: number
}

export interface SandboxReport {
  /** Highest resident memory seen of the child during this parse, in bytes (sampled). */
  peakBytes: number
  /** Pages read by OCR, each of which started the deadline again. */
  pagesRead?: number
  /** The parse's scratch folder (removed when it ends). */
  scratchDir?: string
}

const MEMORY_SAMPLE_MS = 100
// A child is reused for the next file only while it is this lean and has not served too many.
const REUSE_BELOW_SHARE = 0.5
const REUSE_JOBS = 200
// Signals that end a child from outside (Ctrl-C reaches the whole process group, a shutdown):
// not the file's fault, so the parse is retried rather than the document failed.
const OUTSIDE_SIGNALS = new Set(['SIGINT', 'SIGTERM', 'SIGHUP'])

export interface ParseSandbox {
  /**
   * Parses a stored file in a child process, yielding its sections in batches as they come (the
   * child waits for the next pull, so nothing piles up). A file that runs past the memory cap or
   * the deadline, or crashes the parser, fails with a DocumentParseError saying which; the calling
   * process, its other jobs and its database connections are untouched.
   */
  parse(request: ParseRequest, report?: SandboxReport): AsyncGenerator<ParsedSection[]>
  close(): void
}

export function createParseSandbox(
  budget: SandboxBudget,
  entry: ChildEntry = PARSE_CHILD.source,
): ParseSandbox {
  // Copies of documents an earlier run's killed parses left behind (their parent died too).
  void removeLeftScratch(tmpdir())
  const idle: { child: SandboxChild; timer: NodeJS.Timeout }[] = []
  /** Children at work, with how to stop each (its parse then fails with that error). */
  const busy = new Map<SandboxChild, (error: Error) => void>()
  let closed = false

  const acquire = () => {
    const reused = idle.pop()
    if (reused) {
      clearTimeout(reused.timer)
      if (reused.child.alive) return reused.child
    }
    return new SandboxChild(budget.memoryMb, entry)
  }
  const release = async (child: SandboxChild, healthy: boolean) => {
    busy.delete(child)
    const bytes = child.process.pid === undefined ? null : await residentBytes(child.process.pid)
    const lean = bytes === null || bytes < budget.memoryMb * 1024 * 1024 * REUSE_BELOW_SHARE
    if (closed || !healthy || !lean || child.jobs >= REUSE_JOBS || !child.alive) {
      child.kill()
      return
    }
    const timer = setTimeout(() => {
      const at = idle.findIndex((entry) => entry.child === child)
      if (at >= 0) idle.splice(at, 1)
      child.kill()
    }, budget.idleMs ?? 30_000)
    timer.unref()
    idle.push({ child, timer })
  }

  /** How many deadlines a document read page by page by OCR may take in all. */
  const OCR_BUDGETS = 10

  async function* parse(request: ParseRequest, report: SandboxReport = { peakBytes: 0 }) {
    if (closed) throw new Error('the parse sandbox is closed')
    // The child's scratch files (a copy of the document, page images) go in a folder this process
    // owns and removes after the parse however it ends: a child killed at its deadline or cap
    // never runs its own clean-up.
    const scratch = await mkdtemp(join(tmpdir(), SCRATCH_PREFIX))
    report.scratchDir = scratch
    const ocr = { ...DEFAULT_OCR, ...request.options.ocr, scratchDir: scratch, memoryMb: budget.memoryMb }
    const child = acquire()
    child.jobs += 1
    let stopped: Error | undefined
    const stop = (error: Error) => {
      stopped ??= error
      child.kill()
    }
    busy.set(child, stop)
    const deadline = parseDeadline({
      timeoutMs: budget.timeoutMs,
      budgets: OCR_BUDGETS,
      onExpire: () =>
        stop(
          new DocumentParseError(
            `timed out after ${Math.round(budget.timeoutMs / 1000)} s (PARSE_TIMEOUT_SECONDS)`,
          ),
        ),
    })
    const sampler = setInterval(async () => {
      const pid = child.process.pid
      const bytes = pid === undefined ? null : await residentBytes(pid)
      if (bytes === null) return
      report.peakBytes = Math.max(report.peakBytes, bytes)
      if (bytes > budget.memoryMb * 1024 * 1024) stop(memoryError(budget))
    }, MEMORY_SAMPLE_MS)
    let healthy = false
    try {
      child.send({ type: 'parse', request: { ...request, options: { ...request.options, ocr } } })
      for (;;) {
        const event = await child.next()
        if (event.kind === 'exit') throw stopped ?? exitError(event, budget)
        const { message } = event
        if (message.type === 'progress') {
          report.pagesRead = (report.pagesRead ?? 0) + 1
          deadline.progressed()
          continue
        }
        if (message.type === 'done') {
          healthy = true
          return
        }
        if (message.type === 'error') {
          // The file was at fault, the parser is fine: the child can take the next file.
          healthy = message.document
          throw message.document ? new DocumentParseError(message.message) : new Error(message.message)
        }
        // The caller stores the batch before asking for more: its time is not the file's.
        deadline.pause()
        yield message.sections
        deadline.resume()
        child.send({ type: 'more' })
      }
    } finally {
      deadline.clear()
      clearInterval(sampler)
      // Left early (the caller stopped pulling): the child is mid-file, so it cannot be reused.
      await release(child, healthy && stopped === undefined)
      await rm(scratch, { recursive: true, force: true })
    }
  }

  return {
    parse,
    close() {
      closed = true
      for (const { child, timer } of idle.splice(0)) {
        clearTimeout(timer)
        child.kill()
      }
      // Not the file's fault: the parse is retried by whoever runs next, the document not failed.
      for (const stop of busy.values())
        stop(new Error('the parse was stopped: the parse worker is shutting down'))
    },
  }
}

const memoryError = (budget: SandboxBudget) =>
  new DocumentParseError(`exceeded ${budget.memoryMb} MiB of memory (PARSE_MEMORY_MB)`)

function exitError(
  { code, signal, stderr }: { code: number | null; signal: NodeJS.Signals | null; stderr: string },
  budget: SandboxBudget,
) {
  if (/heap out of memory|Reached heap limit|allocation failed/i.test(stderr)) return memoryError(budget)
  if (signal && OUTSIDE_SIGNALS.has(signal)) return new Error(`the parser was stopped (${signal})`)
  const detail = stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300)
  return new DocumentParseError(
    `the parser crashed on this file (${signal ?? `exit code ${code}`})${detail ? `: ${detail}` : ''}`,
  )
}

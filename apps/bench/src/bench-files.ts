import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDocumentFinished } from '@rag/api-contract/enums'
import type { BenchConfig } from '@rag/config'
import { collectFiles } from '@rag/gateway-client'
import { getDocument, registerDocument } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { closeRun, openRun, startWorkers, workersAttached } from './bench-run.ts'
import { loadAverage } from './machine-load.ts'
import { percentile } from './percentile.ts'
import { INGESTION_PROCESS_KINDS, printPeaks, trackPeaksByCommand } from './process-memory.ts'

const logger = createLogger({ name: 'bench', level: 'warn' })
const CONTROL_EVERY_MS = 5000
const DEADLINE_MS = 20 * 60_000

/** A failure reason with its particulars (numbers, quoted names) taken out, to group alike ones. */
const reasonGroup = (error: string) =>
  error
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d+/g, 'N')
    .slice(0, 110)

/**
 * `pnpm bench files DIR…`: every supported file under the folders through the real pipeline
 * (worker processes, default parse budget), with a small control document uploaded every 5 s.
 * Prints how many ended ready / failed (by reason) / not at all, the peak memory of each process
 * kind (parse and OCR workers, parse children, each OCR helper), and how long control documents took.
 */
export async function benchFiles(config: BenchConfig, paths: string[], memoryCapMb: number): Promise<void> {
  if (paths.length === 0) throw new Error('usage: pnpm bench files DIR [DIR…]')
  const { files, skipped } = await collectFiles(paths)
  console.log(`${files.length} files to ingest (${skipped.length} skipped) from ${paths.join(', ')}`)
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-files-'))
  const run = await openRun(config, 'files', null)
  const supervisor = startWorkers(config, run, join(work, 'models'), 'none')
  const deps = { pool: run.pool, producer: run.producer, logger }
  const uploads = { uploadDir: join(work, 'uploads'), maxBytes: 50 * 1024 * 1024 }
  const memory = trackPeaksByCommand(INGESTION_PROCESS_KINDS)
  const controls: { id: string; at: number }[] = []
  const controlTimes: number[] = []
  try {
    await workersAttached(run)
    const started = performance.now()
    const ids: { id: string; name: string }[] = []
    let refused = 0
    const controlTimer = setInterval(async () => {
      const n = controls.length + 1
      const { document } = await registerDocument(deps, uploads, {
        filename: `control-${n}.txt`,
        data: Buffer.from(`control document ${n}`),
        collection: 'controls',
      })
      controls.push({ id: document.id, at: performance.now() })
    }, CONTROL_EVERY_MS)
    for (const file of files) {
      try {
        const { document } = await registerDocument(deps, uploads, {
          filename: file.name,
          data: await readFile(file.path),
        })
        ids.push({ id: document.id, name: file.name })
      } catch (error) {
        refused += 1
        console.log(`refused ${file.name}: ${error instanceof Error ? error.message : error}`)
      }
    }
    const pending = new Map(ids.map((entry) => [entry.id, entry]))
    const outcome = { ready: 0, failed: new Map<string, string[]>() }
    const watchedControls = new Set<string>()
    while (pending.size > 0 && performance.now() - started < DEADLINE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 500))
      for (const { id, name } of [...pending.values()]) {
        const document = await getDocument(run.pool, id)
        if (document?.status === 'ready') outcome.ready += 1
        else if (document?.status === 'failed') {
          const group = reasonGroup(document.error ?? 'no reason')
          outcome.failed.set(group, [...(outcome.failed.get(group) ?? []), name])
        } else continue
        pending.delete(id)
      }
      for (const control of controls) {
        if (watchedControls.has(control.id)) continue
        const document = await getDocument(run.pool, control.id)
        if (document && isDocumentFinished(document.status)) {
          watchedControls.add(control.id)
          controlTimes.push(performance.now() - control.at)
        }
      }
    }
    clearInterval(controlTimer)
    const seconds = (performance.now() - started) / 1000
    const failed = [...outcome.failed.values()].reduce((sum, names) => sum + names.length, 0)
    console.log(
      `\n${ids.length} documents in ${seconds.toFixed(0)} s: ${outcome.ready} ready, ${failed} failed, ${pending.size} not finished (refused at upload: ${refused})`,
    )
    console.log('failed, by reason:')
    for (const [reason, names] of [...outcome.failed].sort((a, b) => b[1].length - a[1].length)) {
      console.log(`  ${String(names.length).padStart(4)}  ${reason}   e.g. ${names[0]}`)
    }
    for (const { name } of pending.values()) console.log(`  not finished: ${name}`)
    await printPeaks(memory, memoryCapMb)
    const sorted = [...controlTimes].sort((a, b) => a - b)
    console.log(
      `control documents: ${controlTimes.length} of ${controls.length} finished; p50 ${percentile(sorted, 50).toFixed(0)} ms, p95 ${percentile(sorted, 95).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
    )
    console.log(`load average (1, 5, 15 min): ${loadAverage()}`)
  } finally {
    await memory.stop()
    await supervisor.stop()
    await closeRun(run)
    await rm(work, { recursive: true, force: true })
  }
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDocumentFinished } from '@rag/api-contract/enums'
import type { BenchProcessConfig } from '@rag/config'
import { getDocument, registerDocument } from '@rag/ingest'
import { createLogger } from '@rag/log'
import { readScannedPdfPage } from '@rag/parsers'
import { scannedJapanesePdf } from '@rag/parsers/testing'
import { closeRun, openRun, startWorkers, workersAttached } from './bench-run.ts'
import { loadAverage } from './machine-load.ts'
import { percentile } from './percentile.ts'
import { INGESTION_PROCESS_KINDS, printPeaks, trackPeaksByCommand } from './process-memory.ts'

const logger = createLogger({ name: 'bench', level: 'warn' })
const CONTROLS = 50
const LINES = [
  'ルミナ L-200 取扱説明書　第3章　充電と保証',
  '本製品の保証期間はお買い上げ日から2年間です。保証書は大切に保管してください。',
  '満充電までの時間は約3時間です。バッテリーは満充電で最大8時間点灯します。',
  '浴室など湿気の多い場所では使用しないでください。故障の原因になります。',
  '修理を依頼されるときは、お買い上げの販売店またはサポートセンターにご連絡ください。',
]

/**
 * `pnpm bench scan [PAGES]` (default 500): a scanned book (A4 pages of Japanese, 200 dpi pictures,
 * no text layer) through the real worker processes, its pages read by the OCR page jobs, while 50
 * ordinary documents are uploaded one by one over the book's first part. The baseline, in the same
 * run: the OCR time of the book's pages read one after another with nothing else running (10 pages
 * measured, scaled), divided by OCR_CONCURRENCY. Prints the book's wall time against it, the
 * control documents' p50/p95, and the peak memory of every process kind.
 */
export async function benchScan(config: BenchProcessConfig, args: string[]): Promise<void> {
  const pages = Number(args[0] ?? 500)
  if (!Number.isInteger(pages) || pages < 1) throw new Error('usage: pnpm bench scan [PAGES]')
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-scan-'))
  const book = await scannedJapanesePdf(LINES, { pages })
  const bookPath = join(work, 'book.pdf')
  await writeFile(bookPath, book)
  const ocr = { ...config.parsing.ocr, memoryMb: config.parsing.sandbox.memoryMb }
  const sample = Math.min(10, pages)
  const alone = performance.now()
  for (let page = 1; page <= sample; page++) await readScannedPdfPage(bookPath, page, ocr)
  const perPageMs = (performance.now() - alone) / sample
  const baselineS = (perPageMs * pages) / 1000 / config.parsing.ocr.concurrency
  console.log(
    `${pages} scanned pages (${(book.length / 1048576).toFixed(1)} MiB); OCR alone: ${(perPageMs / 1000).toFixed(2)} s a page, so ${baselineS.toFixed(0)} s at OCR_CONCURRENCY ${config.parsing.ocr.concurrency} on ${cpus().length} cores`,
  )

  const run = await openRun(config.bench, 'scan', null)
  const supervisor = startWorkers(config.bench, run, join(work, 'models'), 'none')
  const memory = trackPeaksByCommand(INGESTION_PROCESS_KINDS)
  const deps = { pool: run.pool, producer: run.producer, logger }
  const uploads = { uploadDir: join(work, 'uploads'), maxBytes: 200 * 1024 * 1024 }
  try {
    await workersAttached(run)
    const started = performance.now()
    const { document } = await registerDocument(deps, uploads, { filename: 'book.pdf', data: book })
    // One control document every few seconds over the first part of the book's OCR time.
    const spacingMs = Math.max(500, Math.min(5000, (baselineS * 1000) / 2 / CONTROLS))
    const controls: { id: string; at: number; took?: number }[] = []
    // Each control's time is noted within a quarter second of it finishing.
    let settling = false
    const watcher = setInterval(async () => {
      if (settling) return
      settling = true
      await settle(run.pool, controls).finally(() => {
        settling = false
      })
    }, 250)
    for (let n = 1; n <= CONTROLS; n++) {
      await new Promise((resolve) => setTimeout(resolve, spacingMs))
      const control = await registerDocument(deps, uploads, {
        filename: `control-${n}.txt`,
        data: Buffer.from(`control document ${n}: the ferry leaves at ${n} o'clock`),
        collection: 'controls',
      })
      controls.push({ id: control.document.id, at: performance.now() })
    }
    let last = ''
    for (;;) {
      const current = await getDocument(run.pool, document.id)
      if (!current || isDocumentFinished(current.status)) break
      const progress = current.ocrPages
        ? `ocr ${current.ocrPages.read}/${current.ocrPages.total}`
        : current.status
      if (progress !== last && Math.round((performance.now() - started) / 1000) % 30 === 0)
        console.log(`  ${Math.round((performance.now() - started) / 1000)} s: ${progress}`)
      last = progress
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
    const wallS = (performance.now() - started) / 1000
    while (controls.some((control) => control.took === undefined))
      await new Promise((resolve) => setTimeout(resolve, 200))
    clearInterval(watcher)
    const finished = await getDocument(run.pool, document.id)
    console.log(
      `book: ${finished?.status} in ${wallS.toFixed(0)} s (${((wallS / baselineS) * 100).toFixed(0)} % of its OCR time alone), ${finished?.chunkCount} chunks, ${finished?.missingPages?.length ?? 0} pages missing${finished?.error ? `: ${finished.error}` : ''}`,
    )
    const times = controls.map((control) => control.took ?? 0).sort((a, b) => a - b)
    console.log(
      `control documents during it: ${controls.length}; p50 ${(percentile(times, 50) / 1000).toFixed(1)} s, p95 ${(percentile(times, 95) / 1000).toFixed(1)} s, max ${((times.at(-1) ?? 0) / 1000).toFixed(1)} s`,
    )
    await printPeaks(memory, config.parsing.sandbox.memoryMb)
    console.log(`load average (1, 5, 15 min): ${loadAverage()}`)
  } finally {
    await memory.stop()
    await supervisor.stop()
    await closeRun(run)
    await rm(work, { recursive: true, force: true })
  }
}

/** Notes how long each control document took, once it is finished. */
async function settle(
  pool: Parameters<typeof getDocument>[0],
  controls: { id: string; at: number; took?: number }[],
) {
  for (const control of controls) {
    if (control.took !== undefined) continue
    const document = await getDocument(pool, control.id)
    if (document && isDocumentFinished(document.status)) control.took = performance.now() - control.at
  }
}

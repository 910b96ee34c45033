import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
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
/** Two-page scans uploaded behind the book, one after another. */
const SMALL_SCANS = 3
const LINES = [
  'ルミナ L-200 取扱説明書　第3章　充電と保証',
  '本製品の保証期間はお買い上げ日から2年間です。保証書は大切に保管してください。',
  '満充電までの時間は約3時間です。バッテリーは満充電で最大8時間点灯します。',
  '浴室など湿気の多い場所では使用しないでください。故障の原因になります。',
  '修理を依頼されるときは、お買い上げの販売店またはサポートセンターにご連絡ください。',
]

interface Timed {
  name: string
  id: string
  at: number
  took?: number
}

/**
 * `pnpm bench scan [PAGES] [--csv ROWS]` (default a 500-page book): a big document through the
 * real worker processes while others are uploaded behind it, to see that it does not hold them
 * up. The book: A4 pages of Japanese, 200 dpi pictures, no text layer, each page its own picture;
 * its pages read by the OCR page jobs. Behind it, 50 one-line documents over its first part and
 * three 2-page scans one after another (goal: each ready within 30 s). The baseline, in the same
 * run: the book's pages read one after another with nothing else running (10 pages measured,
 * scaled), divided by OCR_CONCURRENCY. `--csv ROWS` instead: a CSV of ROWS rows (CSV_MAX_ROWS is
 * 1,000,000) with the one-line documents behind it (goal: each ready within 10 s), and whether the
 * CSV itself completes. Prints wall times, the documents behind it (p50/p95/max), and the peak
 * memory of every process kind.
 */
export async function benchScan(config: BenchProcessConfig, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { csv: { type: 'string' } },
  })
  const pages = Number(positionals[0] ?? 500)
  const rows = values.csv === undefined ? null : Number(values.csv)
  if (!Number.isInteger(pages) || pages < 1 || (rows !== null && (!Number.isInteger(rows) || rows < 1)))
    throw new Error('usage: pnpm bench scan [PAGES] [--csv ROWS]')
  const work = await mkdtemp(join(tmpdir(), 'rag-bench-scan-'))
  const big =
    rows === null
      ? { filename: 'book.pdf', data: await scannedJapanesePdf(LINES, { pages, distinct: true }) }
      : { filename: 'rows.csv', data: csvOf(rows) }
  let baselineS = 60
  if (rows === null) {
    const bookPath = join(work, 'book.pdf')
    await writeFile(bookPath, big.data)
    const ocr = { ...config.parsing.ocr, memoryMb: config.parsing.sandbox.memoryMb }
    const sample = Math.min(10, pages)
    const alone = performance.now()
    for (let page = 1; page <= sample; page++) await readScannedPdfPage(bookPath, page, ocr)
    const perPageMs = (performance.now() - alone) / sample
    baselineS = (perPageMs * pages) / 1000 / config.parsing.ocr.concurrency
    console.log(
      `${pages} scanned pages (${(big.data.length / 1048576).toFixed(1)} MiB); OCR alone: ${(perPageMs / 1000).toFixed(2)} s a page, so ${baselineS.toFixed(0)} s at OCR_CONCURRENCY ${config.parsing.ocr.concurrency} on ${cpus().length} cores`,
    )
  } else console.log(`a CSV of ${rows} rows (${(big.data.length / 1048576).toFixed(1)} MiB)`)

  const run = await openRun(config.bench, 'scan', null)
  const supervisor = startWorkers(config.bench, run, join(work, 'models'), 'none')
  const memory = trackPeaksByCommand(INGESTION_PROCESS_KINDS)
  const deps = { pool: run.pool, producer: run.producer, logger }
  const uploads = { uploadDir: join(work, 'uploads'), maxBytes: 500 * 1024 * 1024 }
  const behind: Timed[] = []
  const upload = async (name: string, data: Buffer) => {
    const { document } = await registerDocument(deps, uploads, { filename: name, data, collection: 'behind' })
    const timed: Timed = { name, id: document.id, at: performance.now() }
    behind.push(timed)
    return timed
  }
  // Each document behind is timed within a quarter second of it finishing.
  let settling = false
  const watcher = setInterval(async () => {
    if (settling) return
    settling = true
    await settle(run.pool, behind).finally(() => {
      settling = false
    })
  }, 250)
  try {
    await workersAttached(run)
    const started = performance.now()
    const { document } = await registerDocument(deps, uploads, big)
    // The big one under way first: its parts (or pages) queued before anything comes behind it.
    await untilUnderWay(run.pool, document.id)
    const spacingMs = Math.max(500, Math.min(5000, (baselineS * 1000) / 2 / CONTROLS))
    const smallScan =
      rows === null ? await scannedJapanesePdf(LINES.slice(0, 2), { pages: 2, distinct: true }) : null
    for (let n = 1; n <= CONTROLS; n++) {
      await new Promise((resolve) => setTimeout(resolve, spacingMs))
      await upload(`control-${n}.txt`, Buffer.from(`control document ${n}: the ferry leaves at ${n} o'clock`))
      // A two-page scan now and then, each once the one before is ready.
      if (smallScan && n % 10 === 5 && behind.filter((t) => t.name.startsWith('scan')).length < SMALL_SCANS) {
        const scan = await upload(`scan-${n}.pdf`, smallScan)
        while (scan.took === undefined) await new Promise((resolve) => setTimeout(resolve, 250))
      }
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
    while (behind.some((timed) => timed.took === undefined))
      await new Promise((resolve) => setTimeout(resolve, 200))
    const finished = await getDocument(run.pool, document.id)
    console.log(
      `${big.filename}: ${finished?.status} in ${wallS.toFixed(0)} s${rows === null ? ` (${((wallS / baselineS) * 100).toFixed(0)} % of its OCR time alone)` : ''}, ${finished?.chunkCount} chunks, ${finished?.missingPages?.length ?? 0} pages missing${finished?.error ? `: ${finished.error}` : ''}`,
    )
    for (const [kind, goal] of [
      ['control', 10],
      ['scan', 30],
    ] as const) {
      const times = behind
        .filter((timed) => timed.name.startsWith(kind))
        .map((timed) => timed.took ?? 0)
        .sort((a, b) => a - b)
      if (times.length === 0) continue
      console.log(
        `${kind === 'control' ? 'one-line documents' : '2-page scans'} behind it: ${times.length}; ready p50 ${(percentile(times, 50) / 1000).toFixed(1)} s, p95 ${(percentile(times, 95) / 1000).toFixed(1)} s, max ${((times.at(-1) ?? 0) / 1000).toFixed(1)} s (goal ≤ ${goal} s)`,
      )
    }
    await printPeaks(memory, config.parsing.sandbox.memoryMb)
    console.log(`load average (1, 5, 15 min): ${loadAverage()}`)
  } finally {
    clearInterval(watcher)
    await memory.stop()
    await supervisor.stop()
    await closeRun(run)
    await rm(work, { recursive: true, force: true })
  }
}

/** A product list of `rows` rows, as an export from a spreadsheet or a shop system is. */
function csvOf(rows: number): Buffer {
  const lines = ['品番,品名,数量,保管場所,担当者']
  for (let row = 1; row <= rows; row++)
    lines.push(`P-${row},ルミナ L-${row % 997} デスクライト,${row % 50},倉庫${row % 12}番棚,担当${row % 37}`)
  return Buffer.from(`${lines.join('\n')}\n`)
}

/** Until the document has parts on their way (the pipeline is busy with it). */
async function untilUnderWay(pool: Parameters<typeof getDocument>[0], id: string) {
  for (;;) {
    const { rows } = await pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ingest_parts WHERE document_id = $1',
      [id],
    )
    const current = await getDocument(pool, id)
    if ((rows[0]?.n ?? 0) >= 2 || !current || isDocumentFinished(current.status)) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Notes how long each document took, once it is finished. */
async function settle(pool: Parameters<typeof getDocument>[0], timed: Timed[]) {
  for (const one of timed) {
    if (one.took !== undefined) continue
    const document = await getDocument(pool, one.id)
    if (document && isDocumentFinished(document.status)) one.took = performance.now() - one.at
  }
}

import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { layoutPages, newRunningMemory } from '@rag/layout'
import { parseDocument, readPdfPages } from '@rag/parsers'
import { PDFParse } from 'pdf-parse'
import { loadAverage } from './machine-load.ts'
import { percentile } from './percentile.ts'

/** PDFs under the paths given (folders searched one level deep), in name order. */
async function pdfsUnder(paths: string[]): Promise<string[]> {
  const files: string[] = []
  for (const path of paths) {
    if ((await stat(path)).isDirectory())
      files.push(
        ...(await readdir(path))
          .filter((name) => name.toLowerCase().endsWith('.pdf'))
          .map((name) => join(path, name)),
      )
    else files.push(path)
  }
  return files.sort()
}

/** The old reading, in the same run: pdf-parse's text of every page, one string a page. */
async function pdfParseText(data: Uint8Array): Promise<number> {
  const parser = new PDFParse({ data: new Uint8Array(data), verbosity: 0 })
  try {
    return (await parser.getText({ pageJoiner: '' })).pages.filter((page) => page.text.trim() !== '').length
  } finally {
    await parser.destroy()
  }
}

/** The running lines layout leaves out of a document (read in batches of 25 pages, as the parser does). */
async function runningOf(data: Uint8Array): Promise<Map<string, Set<number>>> {
  const running = new Map<string, Set<number>>()
  const memory = newRunningMemory()
  const pages = (await readPdfPages(data)).map((page) => page.content)
  for (let first = 0; first < pages.length; first += 25)
    for (const layout of layoutPages(pages.slice(first, first + 25), memory))
      for (const line of layout.running) {
        const shape = line.replace(/\d+/g, '#')
        running.set(shape, (running.get(shape) ?? new Set()).add(layout.page))
      }
  return running
}

/**
 * `pnpm bench layout pages PATH…`: every PDF under the paths read both ways in one run — the
 * layout reading (`parseDocument`, OCR off: pdf.js text and lines, layout, sections) and, as the
 * baseline, pdf-parse's one string a page that the parser used before — with the time per text
 * page of each (p50 and p95 over the documents, and in all), how many each read and failed, and
 * the running headers, footers and page numbers left out of each document (the distinct lines,
 * numbers made alike, with the pages they were on), to be checked by eye: nothing of the body.
 */
export async function benchLayoutPages(paths: string[], { show = 8 } = {}): Promise<void> {
  const files = await pdfsUnder(paths)
  const perPage = { layout: [] as number[], pdfParse: [] as number[] }
  const totals = { layout: 0, pdfParse: 0, pages: 0 }
  const failed = { layout: 0, pdfParse: 0 }
  const reports: string[] = []
  for (const file of files) {
    const data = new Uint8Array(await readFile(file))
    let pages = 0
    let started = performance.now()
    try {
      pages = await pdfParseText(data)
    } catch {
      failed.pdfParse += 1
    }
    const oldTime = performance.now() - started
    started = performance.now()
    let sections = 0
    try {
      for await (const _ of parseDocument(data, basename(file), 'pdf', {
        ocr: { mode: 'off', languages: 'eng' },
      }))
        sections += 1
    } catch {
      failed.layout += 1
    }
    const newTime = performance.now() - started
    if (pages === 0 || sections === 0) continue
    perPage.pdfParse.push(oldTime / pages)
    perPage.layout.push(newTime / pages)
    totals.pdfParse += oldTime
    totals.layout += newTime
    totals.pages += pages
    const running = reports.length < show ? await runningOf(data) : new Map()
    if (running.size > 0 && reports.length < show)
      reports.push(
        `  ${basename(file)} (${pages} pages): ${[...running]
          .map(([shape, on]) => `${JSON.stringify(shape.slice(0, 50))} ×${on.size}`)
          .join(', ')}`,
      )
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`
  process.stdout.write(
    [
      `PDFs: ${files.length} under ${paths.join(' ')}; ${totals.pages} text pages; load ${loadAverage()}`,
      `failed: layout ${failed.layout}, pdf-parse ${failed.pdfParse}`,
      `per text page   layout p50 ${ms(percentile(perPage.layout, 50))} p95 ${ms(percentile(perPage.layout, 95))} all ${ms(totals.layout / Math.max(1, totals.pages))}`,
      `                pdf-parse p50 ${ms(percentile(perPage.pdfParse, 50))} p95 ${ms(percentile(perPage.pdfParse, 95))} all ${ms(totals.pdfParse / Math.max(1, totals.pages))}`,
      `                ratio of p50s ${(percentile(perPage.layout, 50) / Math.max(1e-9, percentile(perPage.pdfParse, 50))).toFixed(2)}`,
      'running lines left out (first documents with any):',
      ...reports,
      '',
    ].join('\n'),
  )
}

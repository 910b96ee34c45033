import { readFile } from 'node:fs/promises'
import { type Box, layoutPages, type Table, tableInRegion } from '@rag/layout'
import { type ReadPage, readPdfPages } from '@rag/parsers'
import { adjacencyRelations, type RelationScore, scoreRelations, summarise } from './adjacency-relations.ts'
import { icdarDocuments, type TruthRegion } from './icdar-ground-truth.ts'
import { loadAverage } from './machine-load.ts'

/**
 * A region's box on the page as layout sees it (top-left, y down). The ground truth gives it with
 * y up: in the PDF's own space, or on a turned page (/Rotate) in the turned page's space.
 */
function regionOnPage(page: ReadPage, box: NonNullable<TruthRegion['box']>): Box {
  const turned = page.rotation % 360 !== 0
  const to = (x: number, y: number) => (turned ? { x, y: page.content.height - y } : page.fromPdf(x, y))
  const a = to(box.x1, box.y1)
  const b = to(box.x2, box.y2)
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    width: Math.abs(a.x - b.x),
    height: Math.abs(a.y - b.y),
  }
}

const relationsOf = (table: Table | null) => (table ? adjacencyRelations(table.cells) : [])

/**
 * `pnpm bench layout tables DIR`: table structure on an ICDAR 2013 Table Competition folder
 * (tabula-java's `icdar2013-dataset/competition-dataset-eu` or `-us`) by the competition's
 * measure, adjacency relations between neighbouring cells (precision, recall and F1 averaged
 * per document; pooled beside them). With regions given: each ground-truth region read by
 * `tableInRegion`. End to end: every table `layoutPages` finds on the document's pages against
 * every ground-truth table. Build and tune on EU; US is for checking only.
 */
export async function benchLayoutTables(folder: string): Promise<void> {
  const documents = await icdarDocuments(folder)
  const withRegions: RelationScore[] = []
  let regionsWithout = 0
  const endToEnd: RelationScore[] = []
  const worst: { name: string; f1: number }[] = []
  let tablesFound = 0
  let tablesExpected = 0
  const started = performance.now()
  let pageCount = 0
  for (const document of documents) {
    const pages = await readPdfPages(new Uint8Array(await readFile(document.pdf)))
    pageCount += pages.length
    const expected = document.regions.flatMap((region) => adjacencyRelations(region.cells))
    const given = document.regions.filter((region) => region.box !== null)
    regionsWithout += document.regions.length - given.length
    const inRegions = given.flatMap((region) => {
      const page = pages[region.page - 1]
      if (!page || !region.box) return []
      return relationsOf(
        tableInRegion(page.content.runs, page.content.segments, regionOnPage(page, region.box)),
      )
    })
    const layouts = layoutPages(pages.map((page) => page.content))
    const tables = layouts.flatMap((layout) =>
      layout.blocks.flatMap((block) => (block.kind === 'table' ? [block.table] : [])),
    )
    tablesFound += tables.length
    tablesExpected += new Set(document.regions.map((region) => region.table)).size
    const score = scoreRelations(
      inRegions,
      given.flatMap((region) => adjacencyRelations(region.cells)),
    )
    withRegions.push(score)
    endToEnd.push(
      scoreRelations(
        tables.flatMap((table) => relationsOf(table)),
        expected,
      ),
    )
    const p = score.found ? score.correct / score.found : 0
    const r = score.expected ? score.correct / score.expected : 0
    worst.push({ name: document.name, f1: p + r ? (2 * p * r) / (p + r) : 0 })
  }
  const seconds = (performance.now() - started) / 1000
  const line = (label: string, s: ReturnType<typeof summarise>) =>
    `${label.padEnd(15)} P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F1 ${s.f1.toFixed(3)}   (pooled P ${s.pooled.precision.toFixed(3)} R ${s.pooled.recall.toFixed(3)} F1 ${s.pooled.f1.toFixed(3)})`
  process.stdout.write(
    [
      `ICDAR 2013 tables: ${folder}`,
      `${documents.length} documents, ${pageCount} pages, ${tablesExpected} tables expected, ${tablesFound} found end to end${regionsWithout ? `; ${regionsWithout} regions without a box (end to end only)` : ''}; ${seconds.toFixed(1)} s; load ${loadAverage()}`,
      line('regions given', summarise(withRegions)),
      line('end to end', summarise(endToEnd)),
      `lowest (regions given): ${worst
        .sort((a, b) => a.f1 - b.f1)
        .slice(0, 6)
        .map((w) => `${w.name} ${w.f1.toFixed(2)}`)
        .join(', ')}`,
      '',
    ].join('\n'),
  )
}

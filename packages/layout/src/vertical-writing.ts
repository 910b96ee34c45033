import type { Box } from './geometry.ts'
import type { TextRun } from './page-content.ts'

/**
 * Vertical writing (縦書き): columns read top to bottom, right to left. A run is vertical when its
 * font says so (WMode 1), or by its geometry when the PDF places glyphs one by one (as browsers
 * print `writing-mode: vertical-rl`): a character or two whose next character stands directly
 * below it rather than beside it.
 */
export function verticalRuns(runs: TextRun[]): Set<TextRun> {
  const vertical = new Set<TextRun>(runs.filter((run) => run.vertical))
  const short = runs.filter(
    (run) => !run.vertical && [...run.text.trim()].length <= 2 && run.text.trim() !== '',
  )
  if (short.length < 4) return vertical
  // Each glyph's nearest neighbour along its column and along its line: a glyph set vertically is
  // closer to the next in its column than to the one beside it (the gap between columns is a
  // line's spacing), and the other way round for horizontal text.
  const alongColumn = nearestGaps(short, 'column')
  const alongLine = nearestGaps(short, 'line')
  const stacked = short.filter((run, i) => {
    const size = run.fontSize || run.height
    const column = alongColumn[i] ?? Number.POSITIVE_INFINITY
    const line = alongLine[i] ?? Number.POSITIVE_INFINITY
    return column < size * 0.6 && column < line - size * 0.05
  })
  // Latin letters, digits and signs stacked one per line are a table's narrow column ("-", "1"),
  // not vertical writing, unless they stand in a column of Japanese (縦中横: a number in a column).
  const wide = stacked.filter((run) => BEYOND_LATIN.test(run.text))
  for (const run of wide) vertical.add(run)
  // Wide glyphs by column (10-point bands), so each narrow one is checked against its column only.
  const band = (run: TextRun) => Math.round((run.x + run.width / 2) / 10)
  const byBand = new Map<number, TextRun[]>()
  for (const run of wide) byBand.set(band(run), [...(byBand.get(band(run)) ?? []), run])
  for (const run of stacked) {
    if (vertical.has(run)) continue
    const near = [-1, 0, 1].flatMap((d) => byBand.get(band(run) + d) ?? [])
    if (near.some((other) => besideInColumn(run, other))) vertical.add(run)
  }
  return vertical
}

const BEYOND_LATIN = /[^\p{ASCII}\u00a0-\u00ff]/u

/** Whether `other` stands directly above or below `run` in its column. */
function besideInColumn(run: TextRun, other: TextRun): boolean {
  const size = run.fontSize || run.height
  if (Math.abs(other.x + other.width / 2 - (run.x + run.width / 2)) > size / 2) return false
  const gap = Math.max(other.y - (run.y + run.height), run.y - (other.y + other.height))
  return gap < size * 0.6
}

/**
 * For each run, the gap to its nearest neighbour in its column (directly above or below, x within
 * a third of its size) or in its line (directly left or right, y within a third): sorted once along
 * the axis, neighbours looked for in a window. Near-linear.
 */
function nearestGaps(runs: TextRun[], along: 'column' | 'line'): number[] {
  const key = (run: TextRun) => (along === 'column' ? run.x : run.y)
  const pos = (run: TextRun) => (along === 'column' ? run.y : run.x)
  const extent = (run: TextRun) => (along === 'column' ? run.height : run.width)
  const order = runs
    .map((run, i) => ({ run, i }))
    .sort((a, b) => key(a.run) - key(b.run) || pos(a.run) - pos(b.run))
  const gaps = runs.map(() => Number.POSITIVE_INFINITY)
  for (let j = 0; j < order.length; j++) {
    const { run, i } = order[j] as { run: TextRun; i: number }
    const slack = (run.fontSize || run.height) / 3
    for (
      let k = j + 1;
      k < order.length && key((order[k] as { run: TextRun }).run) - key(run) <= slack;
      k++
    ) {
      const { run: other, i: m } = order[k] as { run: TextRun; i: number }
      const [first, second] = pos(run) <= pos(other) ? [run, other] : [other, run]
      const gap = Math.max(0, pos(second) - (pos(first) + extent(first)))
      gaps[i] = Math.min(gaps[i] as number, gap)
      gaps[m] = Math.min(gaps[m] as number, gap)
    }
  }
  return gaps
}

/**
 * A quarter turn that makes vertical columns horizontal lines: top to bottom becomes left to
 * right, and the rightmost column the first line. Layout then reads them as it reads horizontal
 * text; `fromTurned` puts boxes back where they are on the page.
 */
export const toTurned = <T extends Box>(box: T, pageWidth: number): T => ({
  ...box,
  x: box.y,
  y: pageWidth - (box.x + box.width),
  width: box.height,
  height: box.width,
})

export const fromTurned = <T extends Box>(box: T, pageWidth: number): T => ({
  ...box,
  x: pageWidth - (box.y + box.height),
  y: box.x,
  width: box.height,
  height: box.width,
})

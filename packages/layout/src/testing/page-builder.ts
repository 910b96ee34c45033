import type { PageContent, Segment, TextRun } from '../page-content.ts'

/**
 * Pages for layout's tests, written as a PDF producer would draw them: text at positions (top-left
 * origin, points), in the order given (the content stream's), with rulings.
 */
export function pageBuilder(page = 1, { width = 595, height = 842 } = {}) {
  const runs: TextRun[] = []
  const segments: Segment[] = []
  const charWidth = (text: string, size: number) =>
    [...text].reduce((sum, char) => sum + (/[\u3000-\u9fff\uff00-\uffef]/u.test(char) ? size : size * 0.5), 0)
  const builder = {
    /** Text with its top-left corner at (x, y). */
    text(x: number, y: number, text: string, { size = 10, bold = false } = {}) {
      runs.push({
        text,
        x,
        y,
        width: charWidth(text, size),
        height: size,
        fontSize: size,
        bold,
        vertical: false,
      })
      return builder
    },
    /** A column of glyphs placed one by one, downwards from (x, y): how browsers print 縦書き. */
    verticalText(x: number, y: number, text: string, { size = 10 } = {}) {
      ;[...text].forEach((char, i) => {
        runs.push({
          text: char,
          x,
          y: y + i * size,
          width: size,
          height: size,
          fontSize: size,
          bold: false,
          vertical: false,
        })
      })
      return builder
    },
    line(x1: number, y1: number, x2: number, y2: number) {
      segments.push({ x1, y1, x2, y2 })
      return builder
    },
    /** A ruled grid: lines at each x and y, a cell's text at its top-left (row by row). */
    grid(xs: number[], ys: number[], cells: string[][], { size = 10 } = {}) {
      for (const y of ys) builder.line(xs[0] as number, y, xs.at(-1) as number, y)
      for (const x of xs) builder.line(x, ys[0] as number, x, ys.at(-1) as number)
      for (const [r, row] of cells.entries())
        for (const [c, text] of row.entries())
          if (text) builder.text((xs[c] as number) + 3, (ys[r] as number) + 3, text, { size })
      return builder
    },
    build(): PageContent {
      return { page, width, height, runs: [...runs], segments: [...segments] }
    },
  }
  return builder
}

/**
 * A ruled table with a two-level header, as car brochures print it: 車種 and 価格 run down both
 * header rows, 燃費 spans 市街地 and 高速 under it; then two data rows (セダン, ワゴン).
 */
export function twoLevelHeaderTable(page = 1): ReturnType<typeof pageBuilder> {
  const builder = pageBuilder(page)
  for (const y of [100, 140, 160, 180]) builder.line(50, y, 450, y)
  builder.line(150, 120, 350, 120)
  for (const x of [50, 150, 350, 450]) builder.line(x, 100, x, 180)
  builder.line(250, 120, 250, 180)
  builder.text(53, 103, '車種').text(153, 103, '燃費').text(353, 103, '価格')
  builder.text(153, 123, '市街地').text(253, 123, '高速')
  builder.text(53, 143, 'セダン').text(153, 143, '12.5').text(253, 143, '18.0').text(353, 143, '200万円')
  builder.text(53, 163, 'ワゴン').text(153, 163, '10.2').text(253, 163, '15.5').text(353, 163, '250万円')
  return builder
}

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

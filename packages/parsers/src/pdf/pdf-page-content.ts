import type { PageContent, Segment, TextRun } from '@rag/layout'
import { AnnotationMode, OPS, Util } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js'

/** What is read of one page at most: past these, the rest is left out and said so. */
export const PAGE_LIMITS = { textItems: 100_000, segments: 50_000 }

type Matrix = [number, number, number, number, number, number]

/** pdf.js's path drawing codes inside a constructPath (its DrawOPS). */
const MOVE_TO = 0
const LINE_TO = 1
const CURVE_TO = 2
const CLOSE_PATH = 3
/** Painting operators that draw a path's outline, or fill it. */
const STROKES = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke])
const FILLS = new Set([OPS.fill, OPS.eoFill])

/** Font names that say a bold face (pdf.js's flag is not set for every embedded font). */
const BOLD_NAME = /bold|black|heavy|semibold|demi|\bW[6-9]\b|-W[6-9]|ExtraB/i

export interface ReadPage {
  content: PageContent
  /** What was left out of the page, and why (too many text items or lines). */
  cut: string[]
  /** A point in the PDF's own user space (origin bottom-left) in the page's top-left coordinates. */
  fromPdf: (x: number, y: number) => { x: number; y: number }
  /** The page's /Rotate (0, 90, 180 or 270). */
  rotation: number
}

/**
 * A page as layout reads it, through pdf.js directly: each text item placed in the page's own
 * top-left coordinates (the page's rotation applied), with its font size, boldness (the loaded
 * font's flag or name) and direction; and the lines and rectangle edges it draws, with the
 * transforms (and form XObjects) they are drawn under. Curves are not lines.
 */
export async function readPdfPage(page: PDFPageProxy, limits = PAGE_LIMITS): Promise<ReadPage> {
  const viewport = page.getViewport({ scale: 1 })
  const viewMatrix = viewport.transform as Matrix
  // Annotations (form fields, stamps) are not the page's text: their drawing is not listed.
  const operators = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE })
  const cut: string[] = []
  const segments = segmentsOf(operators.fnArray, operators.argsArray, viewMatrix, limits.segments, cut)
  const text = await page.getTextContent()
  const runs: TextRun[] = []
  let items = 0
  for (const item of text.items) {
    if (!('str' in item) || item.str.trim() === '') continue
    if (++items > limits.textItems) {
      cut.push(`only its first ${limits.textItems} text items are laid out`)
      break
    }
    const style = text.styles[item.fontName]
    const tx = Util.transform(viewMatrix, item.transform as Matrix) as Matrix
    const size = Math.hypot(tx[2], tx[3])
    if (!(size > 0)) continue
    const angle = Math.atan2(tx[1], tx[0])
    // Latin letters and digits in a column of vertical Japanese are set sideways, reading down
    // (縦書き's 1994, (…)): they are part of the column. Other turned text (a rotated label) is not
    // part of the page's lines.
    const sideways = Math.abs(angle - Math.PI / 2) <= 0.1
    if (sideways) {
      const size = Math.hypot(tx[0], tx[1])
      runs.push({
        text: item.str,
        x: tx[4] - size * 0.15,
        y: tx[5],
        width: size,
        height: item.width,
        fontSize: size,
        bold: false,
        vertical: true,
      })
      continue
    }
    if (Math.abs(angle) > 0.1 && !style?.vertical) continue
    const ascent = style?.ascent && style.ascent > 0 ? style.ascent : 0.85
    const font = fontOf(page, item.fontName)
    const bold =
      font?.bold === true || BOLD_NAME.test(font?.name ?? '') || BOLD_NAME.test(style?.fontFamily ?? '')
    if (style?.vertical)
      runs.push({
        text: item.str,
        x: tx[4] - size / 2,
        y: tx[5],
        width: size,
        height: Math.max(item.height, size),
        fontSize: size,
        bold,
        vertical: true,
      })
    else
      runs.push({
        text: item.str,
        x: tx[4],
        y: tx[5] - size * ascent,
        width: item.width,
        height: size,
        fontSize: size,
        bold,
        vertical: false,
      })
  }
  return {
    content: { page: page.pageNumber, width: viewport.width, height: viewport.height, runs, segments },
    cut,
    rotation: page.rotate,
    fromPdf: (x, y) => {
      const [px, py] = viewport.convertToViewportPoint(x, y) as [number, number]
      return { x: px, y: py }
    },
  }
}

/** The loaded font of a text item (after the operator list loaded it), or null. */
function fontOf(page: PDFPageProxy, name: string): { bold?: boolean; name?: string } | null {
  try {
    return page.commonObjs.has(name) ? (page.commonObjs.get(name) as { bold?: boolean; name?: string }) : null
  } catch {
    return null
  }
}

/** The straight lines a page draws, in the page's top-left coordinates. */
function segmentsOf(
  fnArray: number[],
  argsArray: unknown[],
  viewMatrix: Matrix,
  limit: number,
  cut: string[],
): Segment[] {
  const segments: Segment[] = []
  const stack: Matrix[] = []
  let ctm: Matrix = [1, 0, 0, 1, 0, 0]
  const point = (x: number, y: number) => {
    const [a, b, c, d, e, f] = Util.transform(viewMatrix, ctm) as Matrix
    return { x: a * x + c * y + e, y: b * x + d * y + f }
  }
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]
    const args = argsArray[i] as unknown[]
    if (fn === OPS.save) stack.push(ctm)
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm
    else if (fn === OPS.transform) ctm = Util.transform(ctm, args as Matrix) as Matrix
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm)
      const matrix = args[0] as Matrix | null
      if (matrix) ctm = Util.transform(ctm, matrix) as Matrix
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm
    else if (fn === OPS.constructPath) {
      const paint = args[0] as number
      if (!STROKES.has(paint) && !FILLS.has(paint)) continue
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0]
      if (!data) continue
      let start = { x: 0, y: 0 }
      let at = { x: 0, y: 0 }
      for (let k = 0; k < data.length; ) {
        const op = data[k++]
        if (op === MOVE_TO) {
          at = point(data[k++] as number, data[k++] as number)
          start = at
        } else if (op === LINE_TO) {
          const to = point(data[k++] as number, data[k++] as number)
          segments.push({ x1: at.x, y1: at.y, x2: to.x, y2: to.y })
          at = to
        } else if (op === CURVE_TO) {
          k += 4
          at = point(data[k++] as number, data[k++] as number)
        } else if (op === CLOSE_PATH) {
          if (at.x !== start.x || at.y !== start.y)
            segments.push({ x1: at.x, y1: at.y, x2: start.x, y2: start.y })
          at = start
        } else break
      }
      if (segments.length > limit) {
        cut.push(`only the first ${limit} drawn lines of a page are looked at for tables`)
        return segments.slice(0, limit)
      }
    }
  }
  return segments
}

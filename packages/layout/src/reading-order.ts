import { type Box, median, overlap, right } from './geometry.ts'

/**
 * Whether the order things are drawn in reads as a page is read: most PDFs (word processors,
 * browsers, LaTeX) draw text in reading order, and that order is kept. It is out of order when the
 * drawing jumps back up the page within a column (boxes overlapping horizontally), or up into a
 * column to the left.
 */
export function drawnInReadingOrder(boxes: (Box & { order: number })[]): boolean {
  const drawn = [...boxes].sort((a, b) => a.order - b.order)
  const lineHeight = median(drawn.map((box) => box.height)) || 10
  let backwards = 0
  for (let i = 1; i < drawn.length; i++) {
    const before = drawn[i - 1] as Box
    const after = drawn[i] as Box
    const up = after.y + lineHeight * 2 < before.y
    const sameColumn = overlap(before.x, right(before), after.x, right(after)) > 0
    // Up within a column, or up into a column to the left: read backwards in a left-to-right page.
    if (up && (sameColumn || right(after) <= before.x)) backwards++
  }
  return backwards < Math.max(1, drawn.length * 0.05)
}

/**
 * Boxes in reading order by recursive XY-cut: a region is cut at its widest vertical strip of white
 * that crosses all of it (a gutter between columns: left before right), else at its widest
 * horizontal gap (top before bottom); a region that cannot be cut is read top to bottom, left to
 * right. `rightToLeft` reads columns right to left (vertical Japanese, turned a quarter).
 */
export function xyCut<T extends Box>(boxes: T[], { rightToLeft = false } = {}): T[] {
  if (boxes.length <= 1) return boxes
  const size = median(boxes.map((box) => box.height)) || 10
  const vertical = widestGap(boxes, (box) => [box.x, right(box)])
  if (vertical && vertical.width >= size * 0.8) {
    const left = boxes.filter((box) => right(box) <= vertical.at)
    const rest = boxes.filter((box) => right(box) > vertical.at)
    const [first, second] = rightToLeft ? [rest, left] : [left, rest]
    return [...xyCut(first, { rightToLeft }), ...xyCut(second, { rightToLeft })]
  }
  const horizontal = widestGap(boxes, (box) => [box.y, box.y + box.height])
  if (horizontal && horizontal.width > 0) {
    const top = boxes.filter((box) => box.y + box.height <= horizontal.at)
    const below = boxes.filter((box) => box.y + box.height > horizontal.at)
    return [...xyCut(top, { rightToLeft }), ...xyCut(below, { rightToLeft })]
  }
  return [...boxes].sort((a, b) => a.y - b.y || (rightToLeft ? right(b) - right(a) : a.x - b.x))
}

/** The widest gap no box covers along one axis, inside the boxes' extent: where it ends, and its width. */
function widestGap<T extends Box>(
  boxes: T[],
  span: (box: T) => [number, number],
): { at: number; width: number } | null {
  const spans = boxes.map(span).sort((a, b) => a[0] - b[0])
  let best: { at: number; width: number } | null = null
  let reach = spans[0]?.[1] ?? 0
  for (const [from, to] of spans.slice(1)) {
    if (from > reach && (!best || from - reach > best.width)) best = { at: reach, width: from - reach }
    reach = Math.max(reach, to)
  }
  return best
}

/** A rectangle on a page, in PDF points, from the page's top-left corner (y grows downwards). */
export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export const right = (box: Box) => box.x + box.width
export const bottom = (box: Box) => box.y + box.height
export const centerX = (box: Box) => box.x + box.width / 2
export const centerY = (box: Box) => box.y + box.height / 2

/** The smallest box holding all of them. */
export function unionOf(boxes: Box[]): Box {
  if (boxes.length === 0) return { x: 0, y: 0, width: 0, height: 0 }
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = Number.NEGATIVE_INFINITY
  let y1 = Number.NEGATIVE_INFINITY
  for (const box of boxes) {
    x0 = Math.min(x0, box.x)
    y0 = Math.min(y0, box.y)
    x1 = Math.max(x1, right(box))
    y1 = Math.max(y1, bottom(box))
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/** How much two ranges [a0, a1] and [b0, b1] overlap (0 when apart). */
export const overlap = (a0: number, a1: number, b0: number, b1: number) =>
  Math.max(0, Math.min(a1, b1) - Math.max(a0, b0))

/** Whether the point is inside the box, with `slack` points of tolerance. */
export const contains = (box: Box, x: number, y: number, slack = 0) =>
  x >= box.x - slack && x <= right(box) + slack && y >= box.y - slack && y <= bottom(box) + slack

/** Rounded to a tenth of a point: what a box is stored and shown as. */
export const roundBox = (box: Box): Box => ({
  x: Math.round(box.x * 10) / 10,
  y: Math.round(box.y * 10) / 10,
  width: Math.round(box.width * 10) / 10,
  height: Math.round(box.height * 10) / 10,
})

/** The median of the numbers (0 for none). */
export function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

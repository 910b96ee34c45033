import type { Box } from './geometry.ts'

/**
 * A run of text as the PDF draws it (pdf.js's text item), placed on the page: its box from the
 * page's top-left, its font size, whether its font is bold, and whether it is set vertically
 * (縦書き: a vertical font, WMode 1, or glyphs advancing downwards).
 */
export interface TextRun extends Box {
  text: string
  fontSize: number
  bold: boolean
  vertical: boolean
}

/** A straight line the page draws (a table's ruling, a rectangle's edge), from the page's top-left. */
export interface Segment {
  x1: number
  y1: number
  x2: number
  y2: number
}

/** What layout reads of one page: its size, its text runs and its drawn lines. */
export interface PageContent {
  /** 1-based. */
  page: number
  width: number
  height: number
  runs: TextRun[]
  segments: Segment[]
}

import { type Box, median, overlap, right, unionOf } from './geometry.ts'
import type { TextRun } from './page-content.ts'

/**
 * A line of text: runs side by side on one baseline, read left to right. A wide gap ends it (the
 * next run starts another line at the same height: a table's next cell, the next column), so a
 * line never reaches across a gutter.
 */
export interface TextLine extends Box {
  text: string
  runs: TextRun[]
  fontSize: number
  bold: boolean
  /** The position of its first run in the content stream (the order the PDF draws text in). */
  order: number
}

/** A gap this many font sizes wide between runs on one baseline ends a line. */
const LINE_BREAKING_GAP = 1.6

const CJK =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．「」（）・：\ufe10-\ufe19\ufe30-\ufe4f]/u

/**
 * A gap this many font sizes wide between a Japanese character and a Latin letter or digit is the
 * typesetter's own spacing (和欧間, a quarter em, wider on a justified line), not a space.
 */
const MIXED_SCRIPT_SPACE = 0.5
/** Between Latin runs a space is much narrower than a letter. */
const LATIN_SPACE = 0.15

/** Whether a space goes between two runs `gap` points apart (none between Japanese characters). */
function joiner(before: string, after: string, gap: number, fontSize: number): string {
  if (before.endsWith(' ') || after.startsWith(' ') || before === '' || after === '') return ''
  const [cjkBefore, cjkAfter] = [CJK.test(before.at(-1) ?? ''), CJK.test(after[0] ?? '')]
  if (cjkBefore && cjkAfter) return ''
  return gap > fontSize * (cjkBefore || cjkAfter ? MIXED_SCRIPT_SPACE : LATIN_SPACE) ? ' ' : ''
}

/**
 * A line set letter-spaced (justified, 均等割り) comes out of some PDFs with a space between every
 * Japanese character (「ご 予 約 は お 電 話 で」): when most neighbouring Japanese characters are
 * spaced apart, the spaces beside Japanese characters are the layout's and go. A line with a few
 * real spaces (「第1章 総則」) keeps them.
 */
export function withoutLetterSpacing(text: string): string {
  const chars = [...text]
  let pairs = 0
  let spaced = 0
  for (let i = 0; i < chars.length - 1; i++) {
    if (!CJK.test(chars[i] ?? '')) continue
    const next = chars[i + 1] === ' ' ? chars[i + 2] : chars[i + 1]
    if (!next || !CJK.test(next)) continue
    pairs += 1
    if (chars[i + 1] === ' ') spaced += 1
  }
  if (pairs < 3 || spaced * 2 <= pairs) return text
  // Letter-spaced: a space beside a Japanese character, or between two characters standing alone
  // (the digits of 「1 1時」), is the layout's.
  const tokens = text.split(' ')
  let joined = tokens[0] ?? ''
  for (let i = 1; i < tokens.length; i++) {
    const [before, after] = [tokens[i - 1] ?? '', tokens[i] ?? '']
    const layouts =
      CJK.test(before.at(-1) ?? '') ||
      CJK.test(after[0] ?? '') ||
      ([...before].length === 1 && [...after].length === 1)
    joined += (layouts ? '' : ' ') + after
  }
  return joined
}

/**
 * The page's runs as lines, in the order their first runs are drawn. Runs are swept in vertical
 * order into bands (a run joins the band its middle falls in, overlapping it by half its height),
 * each band read left to right and cut where a gap passes LINE_BREAKING_GAP font sizes.
 * Near-linear: one sort, one sweep.
 */
export function linesOf(runs: TextRun[]): TextLine[] {
  const indexed = runs
    .map((run, order) => ({ run, order }))
    .filter(({ run }) => run.text.trim() !== '' && run.width >= 0 && run.height > 0)
    .sort((a, b) => a.run.y + a.run.height / 2 - (b.run.y + b.run.height / 2) || a.run.x - b.run.x)
  const bands: { items: typeof indexed; top: number; bottom: number }[] = []
  for (const item of indexed) {
    const { run } = item
    const middle = run.y + run.height / 2
    const band = bands.at(-1)
    const joins =
      band !== undefined &&
      middle >= band.top &&
      middle <= band.bottom &&
      overlap(band.top, band.bottom, run.y, run.y + run.height) >=
        Math.min(band.bottom - band.top, run.height) / 2
    if (joins) {
      band.items.push(item)
      // The band keeps the extent of its first run: a tall run does not pull in the next line.
    } else bands.push({ items: [item], top: run.y, bottom: run.y + run.height })
  }
  const lines: TextLine[] = []
  for (const band of bands) {
    const sorted = band.items.sort((a, b) => a.run.x - b.run.x)
    let current: typeof sorted = []
    let end = Number.NEGATIVE_INFINITY
    const close = () => {
      if (current.length > 0) lines.push(lineOf(current))
      current = []
    }
    for (const item of sorted) {
      const gap = item.run.x - end
      const size = Math.max(item.run.fontSize, current.at(-1)?.run.fontSize ?? 0)
      if (current.length > 0 && gap > size * LINE_BREAKING_GAP) close()
      current.push(item)
      end = current.length === 1 ? right(item.run) : Math.max(end, right(item.run))
    }
    close()
  }
  return lines.filter((line) => line.text !== '').sort((a, b) => a.order - b.order)
}

function lineOf(items: { run: TextRun; order: number }[]): TextLine {
  let text = ''
  let end = Number.NEGATIVE_INFINITY
  for (const { run } of items) {
    text += joiner(text, run.text, run.x - end, run.fontSize) + run.text
    end = right(run)
  }
  const joined = withoutLetterSpacing(text.replace(/\s+/g, ' ').trim())
  const boldChars = items.filter(({ run }) => run.bold).reduce((n, { run }) => n + run.text.length, 0)
  return {
    ...unionOf(items.map(({ run }) => run)),
    text: joined,
    runs: items.map(({ run }) => run),
    fontSize: median(items.map(({ run }) => run.fontSize)),
    bold: boldChars * 2 > joined.length,
    order: Math.min(...items.map(({ order }) => order)),
  }
}

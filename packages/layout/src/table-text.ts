import { median } from './geometry.ts'
import type { TextRun } from './page-content.ts'
import { linesOf } from './text-lines.ts'

/**
 * Runs cut at their spaces into words, each placed where its characters fall (by the run's width
 * shared out over its characters): a PDF that draws a whole table row as one run ("Plan  Price
 * Storage") still puts each word in its own cell.
 */
export function splitIntoWords(runs: TextRun[]): TextRun[] {
  const words: TextRun[] = []
  for (const run of runs) {
    const chars = [...run.text]
    if (!/\s/.test(run.text) || chars.length === 0) {
      words.push(run)
      continue
    }
    const perChar = run.width / chars.length
    let start = 0
    for (const piece of run.text.split(/(\s+)/)) {
      const length = [...piece].length
      if (piece.trim() !== '')
        words.push({ ...run, text: piece, x: run.x + start * perChar, width: length * perChar })
      start += length
    }
  }
  return words
}

/** A cell's words as its text: line by line, top to bottom, each line left to right. */
export function cellText(words: TextRun[]): string {
  if (words.length === 0) return ''
  const size = median(words.map((word) => word.fontSize))
  const lines = linesOf(words.map((word) => ({ ...word, fontSize: word.fontSize || size })))
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((line) => line.text)
  return joinLines(lines)
}

const CJK_END =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．・\ufe10-\ufe19\ufe30-\ufe4f]$/u
const CJK_START =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー、。，．・\ufe10-\ufe19\ufe30-\ufe4f]/u

/** Lines of one paragraph or cell as one text: a space between them, none inside Japanese. */
export function joinLines(lines: string[]): string {
  let text = ''
  for (const line of lines) {
    const piece = line.trim()
    if (!piece) continue
    text += text === '' || (CJK_END.test(text) && CJK_START.test(piece)) ? piece : ` ${piece}`
  }
  return text
}

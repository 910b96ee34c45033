import type { TextLine } from './text-lines.ts'

/**
 * What numbers a heading, and the level the numbering says: 第1章 / Chapter 1 / Ⅰ / 1. → 1,
 * 第1節 / 1.2 → 2, 第1条 / 1.2.3 → 3, ■ ● ◆ 【…】 → a level below the numbered ones.
 */
const NUMBERINGS: { pattern: RegExp; level: (match: RegExpMatchArray) => number }[] = [
  { pattern: /^第[0-9０-９一二三四五六七八九十百]+[章部編]/u, level: () => 1 },
  { pattern: /^第[0-9０-９一二三四五六七八九十百]+節/u, level: () => 2 },
  { pattern: /^第[0-9０-９一二三四五六七八九十百]+[条款項]/u, level: () => 3 },
  { pattern: /^(chapter|part|section)\s+[0-9ivx]+\b/i, level: () => 1 },
  { pattern: /^[ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+[.．、\s]/u, level: () => 1 },
  {
    pattern: /^([0-9０-９]{1,2})([.．][0-9０-９]{1,2}){0,3}[.．]?\s/u,
    level: (m) =>
      1 +
      ((m[0] ?? '')
        .trim()
        .replace(/[.．]$/, '')
        .split(/[.．]/).length -
        1),
  },
  { pattern: /^[■□●◆◇▼▶►【]/u, level: () => 4 },
]

/** The level a line's numbering gives it as a heading, or null when it is not numbered like one. */
export function numberingLevel(text: string): number | null {
  for (const { pattern, level } of NUMBERINGS) {
    const match = text.match(pattern)
    if (match) return level(match)
  }
  return null
}

/** Text that reads as a sentence, not a title: it ends like one. */
const SENTENCE_END = /[。．.!?！？:：]$/u

/**
 * Whether a line is a heading, and its level (1 = the largest): larger than the page's body text,
 * or bold, or numbered like a heading — and short, standing on a line of its own, not ending like a
 * sentence. Sizes rank levels (the largest heading size is level 1); numbering decides within a size.
 */
export function headingOf(
  line: TextLine,
  { bodySize, headingSizes }: { bodySize: number; headingSizes: number[] },
): { level: number } | null {
  const text = line.text
  const chars = [...text].length
  if (chars === 0 || chars > 60 || SENTENCE_END.test(text)) return null
  if (/^[\d\s.,:;/\-–—%¥$€()（）]+$/u.test(text)) return null
  const larger = line.fontSize >= bodySize * 1.15
  const numbered = numberingLevel(text)
  // A numbered line in body size is a heading only when it is short (a list item is longer) or bold.
  if (!larger && !line.bold && (numbered === null || chars > 30)) return null
  if (!larger && line.bold && chars > 40) return null
  const rank = headingSizes.findIndex((size) => Math.abs(size - line.fontSize) < 0.5)
  const bySize = larger && rank >= 0 ? rank + 1 : headingSizes.length + 1
  return { level: numbered !== null && !larger ? Math.max(bySize, numbered) : bySize }
}

/** The heading sizes of a document, largest first: font sizes above the body's, by how often they occur. */
export function headingSizesOf(lines: TextLine[], bodySize: number): number[] {
  const sizes = new Set<number>()
  for (const line of lines)
    if (line.fontSize >= bodySize * 1.15 && [...line.text].length <= 60)
      sizes.add(Math.round(line.fontSize * 2) / 2)
  return [...sizes].sort((a, b) => b - a)
}

/** The body text's size: the size most characters are set in. */
export function bodySizeOf(lines: TextLine[]): number {
  const chars = new Map<number, number>()
  for (const line of lines) {
    const size = Math.round(line.fontSize * 2) / 2
    chars.set(size, (chars.get(size) ?? 0) + line.text.length)
  }
  let best = 0
  let most = -1
  for (const [size, count] of chars)
    if (count > most) {
      best = size
      most = count
    }
  return best || 10
}

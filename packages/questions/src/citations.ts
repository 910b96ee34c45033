import type { Citation, QuestionSource } from './question-store.ts'

// Models write markers as [1], ［１］, 【1】, [1, 2], [1、2], [1-3]: all become [n] forms.
const MARKER = /[[［【]\s*([0-9０-９]{1,3}(?:\s*[,，、\-–~～]\s*[0-9０-９]{1,3})*)\s*[\]］】]/g

const digits = (text: string) => text.normalize('NFKC')

/** The answer with every citation marker in the plain `[n]` / `[n, m]` form the clients link. */
export function normalizeCitationMarkers(answer: string): string {
  return answer.replace(MARKER, (_, inner: string) => {
    const plain = digits(inner)
      .replace(/\s*[,，、]\s*/g, ', ')
      .replace(/\s*[-–~～]\s*/g, '-')
    return `[${plain}]`
  })
}

/** Marker numbers a bracket holds: `1, 2` → 1 2; a range `1-3` → 1 2 3 (at most 20). */
function markerNumbers(inner: string): number[] {
  const numbers: number[] = []
  for (const piece of digits(inner).split(/\s*[,，、]\s*/)) {
    const [from, to] = piece.split(/\s*[-–~～]\s*/).map(Number)
    if (from === undefined || Number.isNaN(from)) continue
    const last = to !== undefined && to >= from && to - from < 20 ? to : from
    for (let n = from; n <= last; n++) numbers.push(n)
  }
  return numbers
}

/** The answer's markers that name a passage it was given, each once, in order of first use. */
export function citationsOf(answer: string, sources: QuestionSource[]): Citation[] {
  const byRank = new Map(sources.map((source) => [source.rank, source]))
  const seen = new Set<number>()
  const citations: Citation[] = []
  for (const match of answer.matchAll(MARKER)) {
    for (const n of markerNumbers(match[1] ?? '')) {
      const source = byRank.get(n)
      if (!source || seen.has(n)) continue
      seen.add(n)
      citations.push({ marker: n, sourceId: source.sourceId })
    }
  }
  return citations
}

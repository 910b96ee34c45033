import type { Citation, QuestionSource } from './question-store.ts'

/** The answer's [n] markers that name a passage it was given, each once, in order of first use. */
export function citationsOf(answer: string, sources: QuestionSource[]): Citation[] {
  const byRank = new Map(sources.map((source) => [source.rank, source]))
  const seen = new Set<number>()
  const citations: Citation[] = []
  for (const match of answer.matchAll(/\[(\d{1,3})(?:\s*[,、]\s*(\d{1,3}))*\]/g)) {
    for (const marker of match[0].match(/\d+/g) ?? []) {
      const n = Number(marker)
      const source = byRank.get(n)
      if (!source || seen.has(n)) continue
      seen.add(n)
      citations.push({ marker: n, sourceId: source.sourceId })
    }
  }
  return citations
}

/**
 * In-memory Okapi BM25 over pre-tokenized documents: the reference the database-backed keyword
 * search is measured against, and the scorer of the tokenizer benchmark.
 */
export class Bm25Index {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>()
  private readonly lengths: number[] = []
  private totalLength = 0

  constructor(private readonly params = { k1: 1.2, b: 0.75 }) {}

  add(terms: string[]): number {
    const doc = this.lengths.length
    const counts = new Map<string, number>()
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1)
    for (const [term, tf] of counts) {
      const list = this.postings.get(term) ?? []
      list.push({ doc, tf })
      this.postings.set(term, list)
    }
    this.lengths.push(terms.length)
    this.totalLength += terms.length
    return doc
  }

  get size(): number {
    return this.lengths.length
  }

  get averageLength(): number {
    return this.totalLength / Math.max(1, this.lengths.length)
  }

  /** Documents holding the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.length ?? 0
  }

  search(terms: string[], limit = 10): { doc: number; score: number }[] {
    const n = this.lengths.length
    const avgLength = this.totalLength / Math.max(1, n)
    const scores = new Map<number, number>()
    for (const term of new Set(terms)) {
      const list = this.postings.get(term)
      if (!list) continue
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
      for (const { doc, tf } of list) {
        const norm =
          tf + this.params.k1 * (1 - this.params.b + (this.params.b * (this.lengths[doc] ?? 0)) / avgLength)
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.params.k1 + 1)) / norm)
      }
    }
    return [...scores]
      .map(([doc, score]) => ({ doc, score }))
      .sort((a, b) => b.score - a.score || a.doc - b.doc)
      .slice(0, limit)
  }
}

import { type Polarity, polarityOf } from '@rag/answer-span'
import type { PolarityPair } from './polarity-set.ts'

export interface PolarityReport {
  pairs: number
  right: number
  accuracy: number
  /** A yes given where the sentence says no, or the other way: the answer contradicting its source. */
  contradictions: number
  /** A yes or no given where the sentence decides nothing (or says the thing is not stated). */
  leadWithoutGrounds: number
  byKind: Record<string, { pairs: number; right: number }>
  byLanguage: Record<string, { pairs: number; right: number }>
  results: (PolarityPair & { got: Polarity })[]
}

const decided = (polarity: Polarity) => polarity === 'yes' || polarity === 'no'

/** Scores polarityOf on a set of pairs: accuracy, and the two errors users forgive least. */
export function scorePolarity(pairs: PolarityPair[]): PolarityReport {
  const results = pairs.map((pair) => ({ ...pair, got: polarityOf(pair.question, pair.sentence) }))
  const tally = (key: (pair: PolarityPair) => string) => {
    const table: Record<string, { pairs: number; right: number }> = {}
    for (const result of results) {
      const entry = table[key(result)] ?? { pairs: 0, right: 0 }
      table[key(result)] = entry
      entry.pairs++
      if (result.got === result.expected) entry.right++
    }
    return table
  }
  const right = results.filter((result) => result.got === result.expected).length
  return {
    pairs: results.length,
    right,
    accuracy: right / Math.max(1, results.length),
    contradictions: results.filter(
      (result) => decided(result.expected) && decided(result.got) && result.got !== result.expected,
    ).length,
    leadWithoutGrounds: results.filter((result) => !decided(result.expected) && decided(result.got)).length,
    byKind: tally((pair) => pair.kind),
    byLanguage: tally((pair) => pair.language),
    results,
  }
}

/** The report as a person reads it: the figures, then each kind's and language's. */
export function renderPolarity(report: PolarityReport): string {
  const row = (name: string, { pairs, right }: { pairs: number; right: number }) =>
    `  ${name.padEnd(18)} ${String(right).padStart(4)} / ${String(pairs).padEnd(4)} ${((right / Math.max(1, pairs)) * 100).toFixed(1)} %`
  return [
    `polarity: ${report.right} of ${report.pairs} right (${(report.accuracy * 100).toFixed(1)} %); ` +
      `${report.contradictions} yes/no contradicting the sentence; ${report.leadWithoutGrounds} yes/no where the sentence decides nothing`,
    ...Object.entries(report.byLanguage).map(([name, entry]) => row(name, entry)),
    ...Object.entries(report.byKind).map(([name, entry]) => row(name, entry)),
  ].join('\n')
}

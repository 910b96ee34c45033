/** Counts of values in equal bins from `from`, `width` wide: what a time histogram draws. */
export interface Histogram {
  from: number
  width: number
  counts: number[]
}

/**
 * Times (ms) binned for a chart: `bins` equal bins from the least to the 99th percentile, the
 * slowest percent counted in the last bin (one slow outlier would otherwise squash the rest).
 */
export function timeHistogram(values: readonly number[], bins = 20): Histogram | null {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const from = sorted[0] ?? 0
  const top = sorted[Math.floor((sorted.length - 1) * 0.99)] ?? from
  const width = Math.max((top - from) / bins, 1)
  const counts = new Array<number>(bins).fill(0)
  for (const value of sorted) {
    const bin = Math.min(bins - 1, Math.floor((value - from) / width))
    counts[bin] = (counts[bin] ?? 0) + 1
  }
  return { from: Math.round(from * 10) / 10, width: Math.round(width * 10) / 10, counts }
}

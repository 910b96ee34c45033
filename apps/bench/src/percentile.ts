/** The p-th percentile (nearest rank) of a list of figures. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
}

export const ms = (value: number) => `${value.toFixed(1)} ms`

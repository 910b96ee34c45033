/**
 * The best IDF-weighted share of the question's terms within any `window` terms in a row of a
 * passage's terms (in text order), 0..1. The question's terms found together are evidence; the
 * same terms scattered over a long passage about the topic mostly are not.
 */
export function windowCoverage(weights: Map<string, number>, terms: string[], window: number): number {
  let total = 0
  for (const weight of weights.values()) total += weight
  if (total <= 0) return 0
  const inWindow = new Map<string, number>()
  let covered = 0
  let best = 0
  for (let i = 0; i < terms.length; i++) {
    const term = terms[i] as string
    const weight = weights.get(term)
    if (weight !== undefined) {
      const count = inWindow.get(term) ?? 0
      if (count === 0) covered += weight
      inWindow.set(term, count + 1)
    }
    const leaving = i >= window ? (terms[i - window] as string) : undefined
    if (leaving !== undefined && weights.has(leaving)) {
      const count = (inWindow.get(leaving) ?? 1) - 1
      inWindow.set(leaving, count)
      if (count === 0) covered -= weights.get(leaving) ?? 0
    }
    if (covered > best) best = covered
  }
  return Math.min(1, best / total)
}

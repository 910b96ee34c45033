const sigmoid = (x: number) => 1 / (1 + Math.exp(-x))

/** Relevance from one row of logits: one logit → sigmoid; two or more → softmax of the last class. */
export function relevanceOf(logits: number[]): number {
  if (logits.length === 1) return sigmoid(logits[0] ?? 0)
  const max = Math.max(...logits)
  const exps = logits.map((value) => Math.exp(value - max))
  return (exps.at(-1) ?? 0) / exps.reduce((sum, value) => sum + value, 0)
}

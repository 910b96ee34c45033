/**
 * How a written answer compares with a dataset's gold answer texts, the way SQuAD's official
 * script does it (lower case, punctuation and English articles dropped, spaces squeezed), with
 * characters as the tokens of text in a script written without spaces (Japanese, Chinese), as
 * JaQuAD and JSQuAD score it.
 */

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]/u

export function normalizeAnswer(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/**
 * Words, or characters for text holding Japanese or Chinese (`characters`: characters whatever it
 * holds — a gold `1997` against an answer `1997年` is compared character by character too).
 */
export function answerTokens(text: string, characters = false): string[] {
  const normal = normalizeAnswer(text)
  if (characters || CJK.test(normal)) return [...normal.replace(/\s/g, '')]
  return normal.split(' ').filter(Boolean)
}

/** SQuAD exact match: the normalized answer equals one of the gold texts. */
export function exactMatch(answer: string, golds: string[]): boolean {
  const normal = normalizeAnswer(answer)
  return golds.some((gold) => normalizeAnswer(gold) === normal)
}

/** SQuAD F1 over tokens (characters for Japanese), the best over the gold texts. */
export function answerF1(answer: string, golds: string[]): number {
  let best = 0
  for (const gold of golds) {
    // One tokenisation for the pair: characters when either side is Japanese or Chinese.
    const characters = CJK.test(normalizeAnswer(answer)) || CJK.test(normalizeAnswer(gold))
    const predicted = answerTokens(answer, characters)
    const expected = answerTokens(gold, characters)
    const counts = new Map<string, number>()
    for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1)
    let common = 0
    for (const token of predicted) {
      const left = counts.get(token) ?? 0
      if (left > 0) {
        common++
        counts.set(token, left - 1)
      }
    }
    if (common === 0) continue
    const precision = common / predicted.length
    const recall = common / expected.length
    best = Math.max(best, (2 * precision * recall) / (precision + recall))
  }
  return best
}

/** The answer holds one of the gold texts (normalized): a sentence that contains the answer counts. */
export function containsGold(answer: string, golds: string[]): boolean {
  const normal = normalizeAnswer(answer)
  return golds.some((gold) => {
    const expected = normalizeAnswer(gold)
    return expected.length > 0 && normal.includes(expected)
  })
}

const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]/gu

/**
 * Tokens of a text without the server's tokenizer: a CJK character is about one token, other text
 * about four characters one. Over rather than under, so a prompt trimmed to it still fits.
 */
export function estimateTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0
  return cjk + Math.ceil((text.length - cjk) / 3.5)
}

/** The first characters of a text holding about `tokens` tokens (by estimateTokens). */
export function truncateToEstimate(text: string, tokens: number): string {
  let used = 0
  let end = 0
  for (const char of text) {
    used += CJK.test(char) ? 1 : 1 / 3.5
    CJK.lastIndex = 0
    if (used > tokens) break
    end += char.length
  }
  return text.slice(0, end)
}

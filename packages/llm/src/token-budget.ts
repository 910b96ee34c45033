import type { TextGenerator } from './llama-generator.ts'
import { estimateTokens, truncateToEstimate } from './token-estimate.ts'

/**
 * The generator's window and tokenizer for building a prompt. When its tokenizer cannot be used
 * (a model whose vocabulary fails to load, a server that gives none) the prompt is still built,
 * counted by the estimate, which counts over rather than under so the prompt still fits; the
 * first failure is reported once.
 */
export function tokenBudgetOf(generator: TextGenerator, onFallback: (error: unknown) => void) {
  let broken = false
  const fallBack = (error: unknown) => {
    if (!broken) onFallback(error)
    broken = true
  }
  return {
    contextSize: generator.contextSize,
    countTokens(text: string): number {
      if (!broken)
        try {
          return generator.countTokens(text)
        } catch (error) {
          fallBack(error)
        }
      return estimateTokens(text)
    },
    truncateToTokens(text: string, tokens: number): string {
      if (!broken)
        try {
          return generator.truncateToTokens(text, tokens)
        } catch (error) {
          fallBack(error)
        }
      return estimateTokens(text) <= tokens ? text : truncateToEstimate(text, tokens)
    },
  }
}

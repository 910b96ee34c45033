import { describe, expect, it } from 'vitest'
import type { TextGenerator } from './llama-generator.ts'
import { tokenBudgetOf } from './token-budget.ts'
import { estimateTokens } from './token-estimate.ts'

// A model whose vocabulary cannot be used: every tokenizer call throws.
const brokenTokenizer: TextGenerator = {
  model: 'broken.gguf',
  contextSize: 2048,
  countTokens: () => {
    throw new Error('tokenizer.json could not be loaded')
  },
  truncateToTokens: () => {
    throw new Error('tokenizer.json could not be loaded')
  },
  generate: () => Promise.reject(new Error('not used')),
  close: () => Promise.resolve(),
}

describe('tokenBudgetOf', () => {
  it('counts by the estimate when the tokenizer cannot be used, and says so once', () => {
    const failures: unknown[] = []
    const budget = tokenBudgetOf(brokenTokenizer, (error) => failures.push(error))
    expect(budget.countTokens('保証期間は3年です')).toBe(estimateTokens('保証期間は3年です'))
    expect(budget.truncateToTokens('保証期間は3年です', 4)).toBe('保証期間')
    expect(budget.countTokens('warranty')).toBe(estimateTokens('warranty'))
    expect(failures).toHaveLength(1)
    expect(String(failures[0])).toMatch(/tokenizer\.json/)
  })

  it("uses the model's own tokenizer when it works", () => {
    const words: TextGenerator = {
      ...brokenTokenizer,
      countTokens: (text) => text.split(' ').length,
      truncateToTokens: (text, tokens) => text.split(' ').slice(0, tokens).join(' '),
    }
    const budget = tokenBudgetOf(words, () => expect.unreachable())
    expect(budget.countTokens('a b c')).toBe(3)
    expect(budget.truncateToTokens('a b c', 2)).toBe('a b')
  })
})

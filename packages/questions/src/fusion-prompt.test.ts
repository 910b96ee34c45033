import { describe, expect, it } from 'vitest'
import { parseRephrasings } from './fusion-prompt.ts'

describe('parseRephrasings', () => {
  it('reads the rephrasings, not a reasoning model’s thinking in either form', () => {
    const list = '1. 保証の期間はどのくらいですか\n2. 保証は何年間有効ですか'
    const question = '保証期間は何年ですか'
    const expected = ['保証の期間はどのくらいですか', '保証は何年間有効ですか']
    expect(parseRephrasings(`<think>\nThe user wants rephrasings.\n</think>\n${list}`, question, 2)).toEqual(
      expected,
    )
    // The template opened the block: only its end comes.
    expect(parseRephrasings(`The user wants rephrasings.\n</think>\n\n${list}`, question, 2)).toEqual(
      expected,
    )
  })
})

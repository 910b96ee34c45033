import { describe, expect, it } from 'vitest'
import { parseRewrite } from './rewrite-prompt.ts'

describe('parseRewrite', () => {
  it('takes the rewritten question, not the thinking before it', () => {
    expect(
      parseRewrite('<think>\nThe follow-up refers to the warranty.\n</think>\n保証期間は延長できますか'),
    ).toBe('保証期間は延長できますか')
    expect(parseRewrite('The follow-up refers to the warranty.\n</think>\n\n保証期間は延長できますか')).toBe(
      '保証期間は延長できますか',
    )
    expect(parseRewrite('<think>still thinking')).toBeNull()
  })
})

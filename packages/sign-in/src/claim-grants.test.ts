import { describe, expect, it } from 'vitest'
import { claimValues, grantsFor } from './claim-grants.ts'

const grants = [
  { value: 'rag-admins', role: 'admin' as const, collections: null },
  { value: 'hr', role: 'reader' as const, collections: ['hr', 'policies'] },
  { value: 'legal', role: 'editor' as const, collections: ['legal'] },
]

describe('a claim mapped to a role and collections', () => {
  it('takes the highest role of the matching values and all their collections', () => {
    expect(grantsFor(['hr', 'legal', 'unrelated'], grants)).toEqual({
      role: 'editor',
      collections: ['hr', 'legal', 'policies'],
    })
  })

  it('grants every collection when one matching value does', () => {
    expect(grantsFor(['hr', 'rag-admins'], grants)).toEqual({ role: 'admin', collections: null })
  })

  it('lets nobody in whom the mapping does not name', () => {
    expect(grantsFor(['marketing'], grants)).toBeNull()
    expect(grantsFor([], grants)).toBeNull()
  })

  it('reads a list claim, a one-value claim (an e-mail, a domain) and ignores anything else', () => {
    expect(claimValues(['a', 1, 'b'])).toEqual(['a', 'b'])
    expect(claimValues('example.com')).toEqual(['example.com'])
    expect(claimValues({ a: 1 })).toEqual([])
    expect(claimValues(undefined)).toEqual([])
  })
})

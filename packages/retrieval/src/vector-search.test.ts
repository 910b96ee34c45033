import { describe, expect, it } from 'vitest'
import { vectorCandidates } from './vector-search.ts'

describe('vector search breadth', () => {
  it('never asks the HNSW search for more than pgvector allows (hnsw.ef_search ≤ 1000)', () => {
    // A deeper value makes Postgres reject the SET, and every search of that depth fails.
    for (const limit of [1, 40, 100, 400, 5000])
      for (const filtered of [false, true])
        expect(vectorCandidates(limit, { filtered })).toBeLessThanOrEqual(1000)
  })

  it('takes at least as many candidates as results wanted, up to that ceiling', () => {
    for (const limit of [1, 10, 40, 100, 500, 1000])
      for (const options of [{}, { fused: true }, { filtered: true }])
        expect(vectorCandidates(limit, options)).toBeGreaterThanOrEqual(Math.min(limit, 1000))
  })

  it('searches deeper when document filters may drop most of what the index yields', () => {
    expect(vectorCandidates(40, { filtered: true })).toBeGreaterThan(vectorCandidates(40))
    expect(vectorCandidates(40, { fused: true })).toBeLessThanOrEqual(vectorCandidates(40))
  })
})

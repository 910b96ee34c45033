import { describe, expect, it } from 'vitest'
import { reciprocalRankFusion } from './reciprocal-rank-fusion.ts'

const list = (...ids: string[]) => ids.map((chunkId, i) => ({ chunkId, score: 100 - i }))

describe('reciprocalRankFusion', () => {
  it('scores α/(k+rank_vec) + (1−α)/(k+rank_kw), ignoring the retrievers own scores', () => {
    const fused = reciprocalRankFusion(
      [
        { items: list('a', 'b'), weight: 0.5 },
        { items: list('b', 'c'), weight: 0.5 },
      ],
      60,
    )
    expect(fused.map((f) => f.chunkId)).toEqual(['b', 'a', 'c'])
    expect(fused[0]?.score).toBeCloseTo(0.5 / 62 + 0.5 / 61, 10)
    expect(fused[1]?.score).toBeCloseTo(0.5 / 61, 10)
  })

  it('lets the weight decide between two first places', () => {
    const keywordHeavy = reciprocalRankFusion([
      { items: list('v'), weight: 0.3 },
      { items: list('k'), weight: 0.7 },
    ])
    expect(keywordHeavy.map((f) => f.chunkId)).toEqual(['k', 'v'])
  })
})

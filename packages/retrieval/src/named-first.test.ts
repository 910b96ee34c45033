import { expect, it } from 'vitest'
import { namedFirst } from './named-first.ts'
import { reciprocalRankFusion } from './reciprocal-rank-fusion.ts'

const ranking = (...ids: string[]) => ids.map((chunkId, i) => ({ chunkId, score: 1 / (i + 1) }))

it('puts the passage holding the rare name first even when fusion by rank lost it', () => {
  const keyword = [{ chunkId: 'jsquad', score: 9, namesHeld: 1 }, ...ranking('a', 'b', 'c')]
  const vector = ranking('a', 'b', 'c', 'jsquad')
  const fused = reciprocalRankFusion(
    [
      { items: vector, weight: 0.5 },
      { items: keyword, weight: 0.5 },
    ],
    60,
  )
  expect(fused[0]?.chunkId).not.toBe('jsquad')
  expect(namedFirst(fused, keyword).map((item) => item.chunkId)).toEqual(['jsquad', 'a', 'b', 'c'])
})

it('orders by how many names a passage holds, keeping the order within each group', () => {
  const keyword = [
    { chunkId: 'x200', score: 3, namesHeld: 1 },
    { chunkId: 'both', score: 2, namesHeld: 2 },
    { chunkId: 'x300', score: 1, namesHeld: 1 },
    { chunkId: 'none', score: 0.5 },
  ]
  const fused = ranking('none', 'x300', 'x200', 'both')
  expect(namedFirst(fused, keyword).map((item) => item.chunkId)).toEqual(['both', 'x300', 'x200', 'none'])
})

it('leaves the ranking as it was when no passage holds a name', () => {
  const fused = ranking('a', 'b')
  expect(namedFirst(fused, ranking('b', 'a'))).toBe(fused)
})

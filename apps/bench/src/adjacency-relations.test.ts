import { describe, expect, it } from 'vitest'
import { adjacencyRelations, type GridCell, scoreRelations, summarise } from './adjacency-relations.ts'

const cell = (row: number, column: number, text: string, rowSpan = 1, columnSpan = 1): GridCell => ({
  row,
  column,
  rowSpan,
  columnSpan,
  text,
})

describe('adjacency relations', () => {
  it('links each cell to its nearest filled neighbour right and below, skipping empty cells', () => {
    const relations = adjacencyRelations([
      cell(0, 0, 'Plan'),
      cell(0, 1, 'Price'),
      cell(1, 0, 'Basic'),
      cell(1, 1, ''),
      cell(2, 0, 'Pro'),
      cell(2, 1, '48,000'),
    ])
    expect(relations.sort()).toEqual(
      [
        'Plan␟Price␟right',
        'Plan␟Basic␟below',
        'Price␟48,000␟below',
        'Basic␟Pro␟below',
        'Pro␟48,000␟right',
      ].sort(),
    )
  })

  it('gives a spanning header one relation per column it spans, and compares contents without spaces', () => {
    const relations = adjacencyRelations([
      cell(0, 0, 'Threshold for\nreleases', 1, 2),
      cell(1, 0, 'to air'),
      cell(1, 1, 'to water'),
    ])
    expect(relations.sort()).toEqual(
      [
        'Thresholdforreleases␟toair␟below',
        'Thresholdforreleases␟towater␟below',
        'toair␟towater␟right',
      ].sort(),
    )
  })

  it('scores found against expected relations, per document and pooled', () => {
    const expected = ['a␟b␟right', 'a␟c␟below']
    const score = scoreRelations(['a␟b␟right', 'x␟y␟right', 'a␟b␟right'], expected)
    expect(score).toEqual({ found: 3, expected: 2, correct: 1 })
    const summary = summarise([score, { found: 2, expected: 2, correct: 2 }])
    expect(summary.precision).toBeCloseTo((1 / 3 + 1) / 2)
    expect(summary.recall).toBeCloseTo((1 / 2 + 1) / 2)
    expect(summary.pooled.precision).toBeCloseTo(3 / 5)
  })
})

describe('comparable content', () => {
  it('drops spaces and the trailing zeros of decimals only', async () => {
    const { comparableContent } = await import('./adjacency-relations.ts')
    expect(comparableContent('6.60')).toBe('6.6')
    expect(comparableContent('100.0 %')).toBe('100%')
    expect(comparableContent('1,200')).toBe('1,200')
    expect(comparableContent('2.05 kg')).toBe('2.05kg')
    expect(comparableContent('v. 10')).toBe('v.10')
  })
})

import { describe, expect, it } from 'vitest'
import { ENGLISH_CHART_WORDS, retrievalBars, timeHistogramChart } from './report-charts.ts'

describe('the evaluation charts', () => {
  it('name their bars as a reader says them, one bar set per configuration', () => {
    const metrics = {
      'hit@1': 0.8,
      'mrr@10': 0.85,
      accuracy: 0.75,
      noAnswerAccuracy: 0.5,
      falseRefusalRate: 0.1,
    }
    const chart = retrievalBars([
      { name: 'keyword', metrics },
      { name: 'hybrid', metrics: { ...metrics, accuracy: 0.8 } },
    ])
    expect(chart.data.labels).toEqual([
      'Expected document first',
      'Rank of the expected document (MRR@10)',
      'Right',
      'Unanswerable refused',
      'Answerable refused',
    ])
    expect(JSON.stringify(chart.data.labels)).not.toMatch(/hit@1|noAnswerAccuracy|falseRefusalRate/)
    expect(chart.data.datasets.map((set) => set.label)).toEqual(['keyword', 'hybrid'])
    // Drawn to its box's height, so a phone's narrow width does not squash it.
    expect(chart.options?.maintainAspectRatio).toBe(false)
  })

  it('count questions in whole numbers', () => {
    const chart = timeHistogramChart(
      { from: 0, width: 100, counts: [1, 2, 1] },
      'Answer time',
      ENGLISH_CHART_WORDS,
    )
    expect(chart.options?.scales?.y).toMatchObject({ ticks: { precision: 0 } })
  })
})

import { describe, expect, it } from 'vitest'
import { parseConfigs } from './eval-configs.ts'

describe('--configs', () => {
  it('gives each spec its preset with its overrides, named by the whole spec', () => {
    const [plain, tuned] = parseConfigs('keyword, hybrid:alpha=0.3:rrfK=20:k1=0.9:rerank=1:answer=extractive')
    expect(plain).toEqual({
      name: 'keyword',
      options: { mode: 'keyword', rerank: false, answer: 'none' },
      retrieval: {},
    })
    expect(tuned).toEqual({
      name: 'hybrid:alpha=0.3:rrfK=20:k1=0.9:rerank=1:answer=extractive',
      options: { mode: 'hybrid', rerank: true, answer: 'extractive' },
      retrieval: { hybridAlpha: 0.3, rrfK: 20, bm25K1: 0.9 },
    })
    expect(parseConfigs('extractive:mode=hybrid:threshold=0.4:parents=false')[0]).toMatchObject({
      options: { mode: 'hybrid', parents: false },
      retrieval: { refusalThreshold: 0.4 },
    })
  })

  it('names what is wrong with an override', () => {
    expect(() => parseConfigs('keyword:alpha=2')).toThrow(
      'config override alpha=2: expected a number from 0 to 1',
    )
    expect(() => parseConfigs('keyword:k=ten')).toThrow('expected a number from 1 to 500')
    expect(() => parseConfigs('keyword:mode=fuzzy')).toThrow('mode=fuzzy: expected vector, keyword or hybrid')
    expect(() => parseConfigs('keyword:answer=maybe')).toThrow(
      'answer=maybe: expected generate, extractive or none',
    )
    expect(() => parseConfigs('keyword:fusion=yes')).toThrow('expected true, false, 1 or 0')
    expect(() => parseConfigs('keyword:topk=3')).toThrow(
      'unknown config override "topk": expected alpha, rrfK, k, threshold, rerankThreshold, k1, b, mode, answer, rerank, fusion, parents',
    )
    expect(() => parseConfigs('keyword:alpha')).toThrow('expected key=value')
    expect(() => parseConfigs('bm99')).toThrow('unknown config "bm99"')
  })
})

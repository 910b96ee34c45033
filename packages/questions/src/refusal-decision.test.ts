import { retrievalDefaults } from '@rag/config'
import { describe, expect, it } from 'vitest'
import { decidingSignals } from './answerability-model.ts'
import { refusalOf } from './language.ts'
import type { Answerability } from './question-store.ts'
import { decisionOf, refusalScore, refuses } from './refusal-decision.ts'

const thresholds = { ...retrievalDefaults(), refusalThreshold: 0.5, rerankRefusalThreshold: 0.2 }
const wordsSayNo: Answerability = {
  probability: 0.05,
  signals: {
    evidence: 0,
    lead: 0,
    distinctive: 0,
    phrase: 0,
    rarest: 0,
    unseen: 1,
    asksKind: 0,
    kindNear: 0,
    limit: 0,
    asksTyped: 0,
    typedSpan: 0,
  },
  decidedBy: 'words',
}
const passage = { score: 0 }

describe('whether a question is refused', () => {
  it('is the fitted judgement over the words when nothing else judged', () => {
    expect(refuses(wordsSayNo, [passage], 'evidence', thresholds)).toBe(true)
    expect(refuses({ ...wordsSayNo, probability: 0.5 }, [passage], 'evidence', thresholds)).toBe(false)
  })

  it("is the reranker's when it judged the passages the embedder found, on its own threshold", () => {
    // The words say no (a paraphrase, another language): the reranker's yes answers it.
    const judged = { ...wordsSayNo, decidedBy: 'reranker' as const }
    expect(refuses({ ...judged, rerankerProbability: 0.3 }, [passage], 'evidence', thresholds)).toBe(false)
    expect(refuses({ ...judged, rerankerProbability: 0.1 }, [passage], 'evidence', thresholds)).toBe(true)
  })

  it('is the best reranker score when the question was reranked', () => {
    expect(refusalScore(wordsSayNo, [{ score: 0.3 }, { score: 0.9 }], 'reranker', thresholds)).toBe(0.9)
    expect(refuses(wordsSayNo, [{ score: 0.3 }, { score: 0.9 }], 'reranker', thresholds)).toBe(false)
  })
})

describe('a refusal', () => {
  it('names the passages it looked at, in the question’s language', () => {
    const looked = [{ sourceId: 'faq.csv:r2' }, { sourceId: 'faq.csv:r2' }, { sourceId: 'guide.pdf:p3' }]
    expect(refusalOf('ja', looked)).toMatch(
      /見つかりませんでした。近い箇所として faq\.csv:r2、guide\.pdf:p3 を確認しました。$/,
    )
    expect(refusalOf('en', looked)).toMatch(/The nearest passages looked at: faq\.csv:r2, guide\.pdf:p3\.$/)
    expect(refusalOf('en', [])).not.toMatch(/nearest/)
  })
})

describe('why a question was answered or refused', () => {
  it('names the signals that weighed toward the refusal, strongest first', () => {
    // No passage says the question's words: coverage, lead and phrasing decided, strongest first.
    expect(decidingSignals(wordsSayNo.signals, false)).toEqual(['evidence', 'lead', 'phrase'])
    expect(decidingSignals(wordsSayNo.signals, true)).toEqual([])
    // A passage says the question, but it holds words the documents never use: those decided.
    const said = { evidence: 0.95, lead: 0.95, phrase: 0.95, distinctive: 0.95, rarest: 1 }
    expect(decidingSignals({ ...wordsSayNo.signals, ...said }, false)).toEqual(['unseen'])
  })

  it('names what weighed toward an answer', () => {
    const says = { ...wordsSayNo.signals, evidence: 1, phrase: 1, lead: 0.9, unseen: 0 }
    expect(decidingSignals(says, true)).toEqual(['evidence', 'phrase', 'lead'])
  })

  it('keeps the threshold the deciding number was held against, and the reranker when it decided', () => {
    expect(decisionOf(wordsSayNo, [passage], 'evidence', thresholds)?.threshold).toBe(0.5)
    expect(decisionOf(wordsSayNo, [{ score: 0.7 }], 'reranker', thresholds)).toMatchObject({
      decidedBy: 'reranker',
      rerankerProbability: 0.7,
      threshold: 0.2,
    })
    expect(decisionOf(null, [passage], 'evidence', thresholds)).toBeNull()
  })
})

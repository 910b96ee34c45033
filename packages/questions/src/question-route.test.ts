import { describe, expect, it } from 'vitest'
import type { QuestionOptions } from './question-options.ts'
import { nextStep, type RoutedQuestion } from './question-route.ts'

const options: QuestionOptions = {
  topK: 3,
  mode: 'hybrid',
  fusion: false,
  rerank: false,
  answer: 'generate',
  parents: true,
}
const question = (
  patch: Partial<Omit<RoutedQuestion, 'options'>> & { options?: Partial<QuestionOptions> } = {},
): RoutedQuestion => ({
  status: 'queued' as const,
  history: [],
  searchQuery: null,
  queries: null,
  ...patch,
  options: { ...options, ...patch.options },
})
const turn = { question: '保証は何年？', searchQuery: null, answer: '2年です' }

describe('nextStep: the question route', () => {
  it('searches a plain question, then goes where its status says', () => {
    expect(nextStep(question())).toBe('retrieve')
    expect(nextStep(question({ status: 'retrieving' }))).toBe('retrieve')
    expect(nextStep(question({ status: 'reranking' }))).toBe('rerank')
    expect(nextStep(question({ status: 'generating' }))).toBe('answer')
    expect(nextStep(question({ status: 'done' }))).toBeNull()
    expect(nextStep(question({ status: 'failed' }))).toBeNull()
  })

  it('has the LLM make a follow-up stand alone first, then rephrase for RAG-Fusion, then searches once', () => {
    const followUp = question({ history: [turn], options: { fusion: true } })
    expect(nextStep(followUp)).toBe('rewrite')
    const rewritten = { ...followUp, status: 'retrieving' as const, searchQuery: '保証は延長できますか' }
    expect(nextStep(rewritten)).toBe('rephrase')
    expect(nextStep({ ...rewritten, queries: ['保証の延長'] })).toBe('retrieve')
    // No LLM could rephrase: the empty list still counts as rephrased.
    expect(nextStep({ ...rewritten, queries: [] })).toBe('retrieve')
  })

  it('leaves a follow-up to the retrieve step when no LLM writes the answer', () => {
    expect(nextStep(question({ history: [turn], options: { answer: 'extractive' } }))).toBe('retrieve')
  })
})

import { describe, expect, it } from 'vitest'
import { buildAnswerPrompt, type TokenBudget } from './answer-prompt.ts'
import type { QuestionSource } from './question-store.ts'

// One token per character: easy to reason about the window.
const budget = (contextSize: number): TokenBudget => ({
  contextSize,
  countTokens: (text) => text.length,
  truncateToTokens: (text, tokens) => text.slice(0, tokens),
})

const source = (rank: number, sourceId: string, parentText: string): QuestionSource => ({
  rank,
  sourceId,
  documentId: '00000000-0000-4000-8000-000000000000',
  title: sourceId.split(':')[0] ?? '',
  score: 0.9,
  retrievalScore: 1,
  text: parentText.slice(0, 10),
  parentText,
  heading: null,
  chunkId: String(rank),
})

describe('buildAnswerPrompt', () => {
  const sources = [source(1, 'guide.pdf:p3', 'A'.repeat(300)), source(2, 'faq.csv:r2', 'B'.repeat(300))]

  it('numbers the passages with their source ids, in the question language', () => {
    const {
      prompt,
      system,
      sources: used,
    } = buildAnswerPrompt({
      question: '保証期間は？',
      language: 'ja',
      sources,
      parents: true,
      budget: budget(4000),
      maxTokens: 500,
    })
    expect(prompt).toMatch(/^以下の情報を基に回答してください。/)
    expect(prompt).toContain('[1] (guide.pdf:p3)\nAAA')
    expect(prompt).toContain('[2] (faq.csv:r2)\nBBB')
    expect(prompt.trimEnd()).toMatch(/質問: 保証期間は？\n日本語で回答してください。\n回答:$/)
    expect(system).toContain('[1]')
    expect(used.map((s) => [s.rank, s.sourceId])).toEqual([
      [1, 'guide.pdf:p3'],
      [2, 'faq.csv:r2'],
    ])
  })

  it('hands the LLM the parent section, or only the chunk when parents are off', () => {
    const args = { question: 'q', language: 'en' as const, sources, budget: budget(4000), maxTokens: 100 }
    expect(buildAnswerPrompt({ ...args, parents: true }).prompt).toContain('A'.repeat(300))
    const chunkOnly = buildAnswerPrompt({ ...args, parents: false }).prompt
    expect(chunkOnly).toContain(`(guide.pdf:p3)\n${'A'.repeat(10)}\n`)
    expect(chunkOnly).not.toContain('A'.repeat(11))
  })

  it('trims to the window: the last passage that fits is cut, the rest left out of prompt and sources', () => {
    const { prompt, sources: used } = buildAnswerPrompt({
      question: 'How long is the warranty?',
      language: 'en',
      sources: [...sources, source(3, 'setup.md#a', 'C'.repeat(300))],
      parents: true,
      budget: budget(1400),
      maxTokens: 200,
    })
    // 1400 − 200 answer − instructions and frame leaves room for one passage and part of another.
    expect(used.map((s) => s.sourceId)).toEqual(['guide.pdf:p3', 'faq.csv:r2'])
    expect(prompt).toContain('A'.repeat(300))
    expect(prompt).not.toContain('B'.repeat(300))
    expect(prompt).not.toContain('C')
    expect(prompt.length + 200).toBeLessThanOrEqual(1400)
  })
})

describe('buildAnswerPrompt with a conversation', () => {
  const sources = [source(1, 'guide.pdf:p5', '保証期間はお買い上げ日から2年間です。')]
  const turn = (n: number) => ({
    question: `質問${n}`,
    searchQuery: null,
    answer: `回答${n}`.padEnd(100, '。'),
  })

  it('reads the earlier turns after the passages, oldest first', () => {
    const { prompt } = buildAnswerPrompt({
      question: 'それは延長できますか',
      language: 'ja',
      sources,
      parents: true,
      budget: budget(4000),
      maxTokens: 500,
      history: [turn(1), turn(2)],
    })
    expect(prompt.indexOf('[1] (guide.pdf:p5)')).toBeLessThan(prompt.indexOf('これまでの会話'))
    expect(prompt.indexOf('質問: 質問1')).toBeLessThan(prompt.indexOf('質問: 質問2'))
    expect(prompt.endsWith('質問: それは延長できますか\n日本語で回答してください。\n回答:')).toBe(true)
  })

  it('leaves the oldest turns out when they do not fit a quarter of the window, never failing', () => {
    const history = Array.from({ length: 30 }, (_, i) => turn(i + 1))
    const { prompt, sources: used } = buildAnswerPrompt({
      question: 'それは延長できますか',
      language: 'ja',
      sources,
      parents: true,
      budget: budget(1600),
      maxTokens: 200,
      history,
    })
    expect(prompt).toContain('質問: 質問30')
    expect(prompt).not.toContain('質問: 質問1\n')
    expect(used).toHaveLength(1)
    expect(prompt.length).toBeLessThanOrEqual(1600 - 200)
  })
})

describe('buildAnswerPrompt under a context budget', () => {
  const long = source(
    1,
    'guide.pdf:p5',
    `${'前置きの文です。'.repeat(40)}保証期間はお買い上げ日から2年間です。${'後書きの文です。'.repeat(40)}`,
  )
  const args = {
    question: '保証期間は何年ですか',
    language: 'ja' as const,
    sources: [long],
    parents: true,
    maxTokens: 100,
  }

  it('reads the answering sentence rather than the whole section, and shares its instructions across languages', () => {
    const budgeted = buildAnswerPrompt({
      ...args,
      budget: budget(4000),
      contextTokens: 60,
      idf: new Map([['保証', 2]]),
    })
    expect(budgeted.prompt).toContain('保証期間はお買い上げ日から2年間です。')
    expect(budgeted.prompt.length).toBeLessThan(
      buildAnswerPrompt({ ...args, budget: budget(4000) }).prompt.length / 4,
    )
    const english = buildAnswerPrompt({
      ...args,
      question: 'How long is the warranty?',
      language: 'en',
      budget: budget(4000),
    })
    // The instructions are the prompt's common prefix: read once by the LLM for every question.
    expect(english.system).toBe(budgeted.system)
    expect(budgeted.contextClamped).toBeUndefined()
  })

  it('says when the budget does not fit the window, with both numbers', () => {
    const prompt = buildAnswerPrompt({
      ...args,
      budget: budget(900),
      contextTokens: 5000,
      idf: new Map([['保証', 2]]),
    })
    expect(prompt.contextClamped?.asked).toBe(5000)
    expect(prompt.contextClamped?.available).toBeLessThan(900)
    expect(prompt.prompt).toContain('保証期間は')
  })
})

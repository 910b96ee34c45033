import type { Pool } from '@rag/db'
import { estimateTokens, truncateToEstimate } from '@rag/llm'
import { buildAnswerPrompt, languageOf, type QuestionRecord } from '@rag/questions'
import { questionWordWeights } from '@rag/retrieval'
import { answerTexts, type EvalQuestion } from './dataset.ts'
import { mean, percentile } from './metrics.ts'

/** What the LLM would read of a question's passages under one context budget. */
export interface ContextMeasure {
  /** Tokens the passages may take (0: whole passages, as far as the window allows). */
  budget: number
  /** Answerable questions with an answer text to look for. */
  questions: number
  /** Share of them whose gold answer text (any of its variants) is inside the context sent to the LLM. */
  recall: number
  tokensP50: number
  tokensP95: number
}

/** The window a context is measured in: the product's LLM_CONTEXT_SIZE and LLM_MAX_TOKENS. */
export interface ContextWindow {
  contextSize: number
  maxTokens: number
  /** The passages the LLM is given (RERANK_TOP_K): the first of each question's sources. */
  topK: number
}

const TOKENIZER = {
  countTokens: estimateTokens,
  truncateToTokens: (text: string, tokens: number) =>
    estimateTokens(text) <= tokens ? text : truncateToEstimate(text, tokens),
}

/**
 * Context recall, model-free: for each answerable question with answer strings (SQuAD, JaQuAD,
 * …), whether a gold answer is inside the passages the answer prompt would hold, under each budget,
 * and how many tokens that is (estimated as the tokenizer-less LLM backends count them: a CJK
 * character one token, other text one per 3.5 characters). Budget 0 is whole passages.
 */
export async function measureContext(
  pool: Pool,
  questions: EvalQuestion[],
  records: (QuestionRecord | undefined)[],
  budgets: number[],
  window: ContextWindow,
  onProgress?: (done: number, total: number) => void,
): Promise<{ measures: ContextMeasure[]; hits: Map<string, boolean[]> }> {
  const items = questions
    .map((question, i) => ({ question, record: records[i] }))
    .filter(({ question, record }) => question.gold !== null && answerTexts(question).length > 0 && record)
  const found = budgets.map(() => [] as number[])
  const tokens = budgets.map(() => [] as number[])
  const hits = new Map<string, boolean[]>()
  let done = 0
  for (const { question, record } of items) {
    // Minutes on a large set: said as it goes.
    if (++done % 100 === 0 || done === items.length) onProgress?.(done, items.length)
    if (!record) continue
    const searched = record.searchQuery ?? record.question
    const idf = await questionWordWeights(pool, searched, record.options)
    const sources = record.sources.slice(0, window.topK)
    const marks: boolean[] = []
    budgets.forEach((budget, b) => {
      const prompt = buildAnswerPrompt({
        question: record.question,
        language: languageOf(record.question),
        sources,
        parents: record.options.parents,
        budget: { contextSize: window.contextSize, ...TOKENIZER },
        maxTokens: window.maxTokens,
        contextTokens: budget,
        idf,
      })
      // The passages only: what the prompt holds besides the question and its frame.
      const passages = prompt.prompt.slice(0, prompt.prompt.lastIndexOf(record.question))
      const hit = answerTexts(question).some((answer) => passages.includes(answer))
      marks.push(hit)
      found[b]?.push(hit ? 1 : 0)
      tokens[b]?.push(estimateTokens(passages))
    })
    hits.set(question.id, marks)
  }
  return {
    measures: budgets.map((budget, b) => ({
      budget,
      questions: items.length,
      recall: mean(found[b] ?? []),
      tokensP50: percentile(tokens[b] ?? [], 50),
      tokensP95: percentile(tokens[b] ?? [], 95),
    })),
    hits,
  }
}

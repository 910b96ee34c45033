import { passageHeader, selectContext } from './answer-context.ts'
import type { Language } from './language.ts'
import type { ConversationTurn, QuestionSource } from './question-store.ts'

/** What the prompt builder needs from the LLM: its window and its tokenizer. */
export interface TokenBudget {
  contextSize: number
  countTokens(text: string): number
  truncateToTokens(text: string, tokens: number): string
}

/**
 * The instructions, one text for every question in either language: the LLM worker evaluates
 * them once and every question reuses them (the chat template's system turn is the prompt's
 * common prefix), so a question pays only for its passages and itself.
 */
export const ANSWER_SYSTEM_PROMPT = [
  'あなたは社内資料に基づいて質問に答えるアシスタントです。You answer questions from the numbered passages you are given.',
  '与えられた情報だけを使い、質問と同じ言語で簡潔かつ正確に回答してください。Use only them; answer concisely and accurately, in the language of the question.',
  '情報に答えがない場合は、推測せずに「資料には記載がありません」と答えてください。If they do not contain the answer, say "The documents do not say." instead of guessing.',
  '根拠にした情報の番号を文末に [1] のように付けてください。Cite the passages you used by their numbers, like [1], at the end of each sentence.',
].join('\n')

const LANGUAGE_NOTE: Record<Language, string> = { ja: '日本語で回答してください。', en: 'Answer in English.' }

const INTRO: Record<Language, string> = {
  ja: '以下の情報を基に回答してください。',
  en: 'Answer the question from the passages below.',
}
const QUESTION: Record<Language, string> = { ja: '質問', en: 'Question' }
const EARLIER: Record<Language, string> = {
  ja: 'これまでの会話（質問の意味を読み取るためだけに使い、答えは上の情報から）:',
  en: 'The conversation so far (only to understand the question; answer from the passages above):',
}
const ANSWER: Record<Language, string> = { ja: '回答', en: 'Answer' }

/** Share of the window the earlier turns may take: the passages come first. */
const HISTORY_SHARE = 0.25

/** The latest turns that fit `tokens`, oldest first; older ones are left out, never an error. */
function historyBlock(history: ConversationTurn[], language: Language, budget: TokenBudget, tokens: number) {
  const kept: string[] = []
  let used = budget.countTokens(EARLIER[language])
  for (const turn of [...history].reverse()) {
    const block = `${QUESTION[language]}: ${turn.question}\n${ANSWER[language]}: ${turn.answer}`
    const cost = budget.countTokens(block) + 2
    if (used + cost > tokens) break
    kept.unshift(block)
    used += cost
  }
  return kept.length > 0 ? { text: `${EARLIER[language]}\n${kept.join('\n\n')}`, tokens: used } : null
}

export interface AnswerPrompt {
  system: string
  prompt: string
  /** The sources that made it into the prompt, numbered as the prompt numbers them. */
  sources: QuestionSource[]
  /** CONTEXT_TOKENS did not fit the window: what was asked, and what the window left. */
  contextClamped?: { asked: number; available: number }
}

const passageOf = (source: QuestionSource, parents: boolean) => (parents ? source.parentText : source.text)

/**
 * Numbered passages and the question, trimmed by tokens to what the window leaves after the
 * instructions and the answer's room. With a context budget (CONTEXT_TOKENS, the default) each
 * passage is read as its sentences that answer with those around them, within the budget (see
 * selectContext); with none (0), whole passages in rank order, the last one that fits cut short,
 * the rest left out (and out of the sources, so [n] always resolves).
 */
export function buildAnswerPrompt({
  question,
  language,
  sources,
  parents,
  budget,
  maxTokens,
  history = [],
  contextTokens = 0,
  idf = new Map(),
}: {
  question: string
  language: Language
  sources: QuestionSource[]
  parents: boolean
  budget: TokenBudget
  maxTokens: number
  /** Earlier turns of the conversation, oldest first: trimmed oldest-first to a share of the window. */
  history?: ConversationTurn[]
  /** Tokens the passages may take (0: whole passages, as far as the window allows). */
  contextTokens?: number
  /** The question's words' IDF, which picks the sentences read under a budget. */
  idf?: Map<string, number>
}): AnswerPrompt {
  const system = ANSWER_SYSTEM_PROMPT
  const frame = `${INTRO[language]}\n\n\n${QUESTION[language]}: ${question}\n${LANGUAGE_NOTE[language]}\n${ANSWER[language]}:`
  // Chat-template tokens around the turns are not in our text: keep a margin for them.
  let remaining = budget.contextSize - maxTokens - budget.countTokens(system) - budget.countTokens(frame) - 48
  const earlier = historyBlock(history, language, budget, Math.floor(Math.max(remaining, 0) * HISTORY_SHARE))
  remaining -= earlier ? earlier.tokens + 2 : 0
  const included: QuestionSource[] = []
  const blocks: string[] = []
  const clamped =
    contextTokens > remaining ? { asked: contextTokens, available: Math.max(remaining, 0) } : undefined
  if (contextTokens > 0) {
    const context = selectContext({
      question,
      sources,
      idf,
      budget: Math.max(1, Math.min(contextTokens, remaining)),
      countTokens: (text) => budget.countTokens(text),
      parents,
    })
    for (const { source, excerpt } of context.passages) {
      included.push({ ...source, rank: included.length + 1 })
      blocks.push(passageHeader(included.length, source) + excerpt)
    }
  } else {
    for (const source of sources) {
      const header = passageHeader(included.length + 1, source)
      const headerTokens = budget.countTokens(header)
      const text = passageOf(source, parents)
      const tokens = budget.countTokens(text)
      if (headerTokens + tokens <= remaining) {
        blocks.push(header + text)
        remaining -= headerTokens + tokens + 2
      } else if (remaining - headerTokens >= 32 || included.length === 0) {
        blocks.push(header + budget.truncateToTokens(text, Math.max(remaining - headerTokens, 16)))
        remaining = 0
      } else {
        break
      }
      included.push({ ...source, rank: included.length + 1 })
      if (remaining <= 0) break
    }
  }
  const conversation = earlier ? `${earlier.text}\n\n` : ''
  const prompt = `${INTRO[language]}\n\n${blocks.join('\n\n')}\n\n${conversation}${QUESTION[language]}: ${question}\n${LANGUAGE_NOTE[language]}\n${ANSWER[language]}:`
  return { system, prompt, sources: included, ...(clamped ? { contextClamped: clamped } : {}) }
}

import { withoutThinking } from '@rag/llm'
import type { Language } from '../language.ts'
import type { ConversationTurn } from '../question-store.ts'

const INSTRUCTIONS: Record<Language, string> = {
  ja: '会話の最後の質問を、それまでの会話を読まなくても意味が通じる一つの質問に書き換えてください。「それ」「その」などが指すものは具体的な言葉にしてください。書き換えた質問だけを1行で出力してください。',
  en: 'Rewrite the last question of the conversation as one question that makes sense without the conversation: replace "it", "that" and the like with what they refer to. Output only the rewritten question, on one line.',
}
const LABELS: Record<Language, { question: string; answer: string; last: string }> = {
  ja: { question: '質問', answer: '回答', last: '最後の質問' },
  en: { question: 'Question', answer: 'Answer', last: 'Last question' },
}

/** The LLM's task of making a follow-up stand alone: the last turns (answers cut short) and the question. */
export function buildRewritePrompt(question: string, history: ConversationTurn[], language: Language) {
  const labels = LABELS[language]
  const turns = history
    .slice(-3)
    .map((turn) => `${labels.question}: ${turn.question}\n${labels.answer}: ${turn.answer.slice(0, 300)}`)
  return { system: INSTRUCTIONS[language], prompt: `${turns.join('\n\n')}\n\n${labels.last}: ${question}` }
}

/** The model's rewritten question: its first line, without a label or quotes; null when unusable. */
export function parseRewrite(text: string): string | null {
  // A reasoning model's thinking is not the question (a follow-up searched as "<think>" is refused).
  const line = withoutThinking(text)
    .split('\n')
    .map((part) => part.replace(/\*\*/g, '').trim())
    .find((part) => part !== '')
  const cleaned = line
    ?.replace(/^(rewritten question|question|書き換えた質問|質問)\s*[:：]\s*/i, '')
    .replace(/^["'「『“]|["'」』”]$/g, '')
    .trim()
  return cleaned && cleaned.length >= 2 && cleaned.length <= 500 ? cleaned : null
}

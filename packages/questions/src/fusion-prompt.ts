import { withoutThinking } from '@rag/llm'
import type { Language } from './language.ts'

const INSTRUCTIONS: Record<Language, (count: number) => string> = {
  ja: (count) =>
    `次の質問を、意味を変えずに別の言い方で${count}通り書き換えてください。検索に使うので、固有名詞や数字はそのまま残してください。1行に1つずつ、番号や説明は付けずに出力してください。`,
  en: (count) =>
    `Rewrite the question below in ${count} different ways that keep its meaning. They are used as search queries: keep names and numbers as they are. Write one per line, with no numbering or commentary.`,
}

export function buildFusionPrompt(question: string, language: Language, count: number) {
  return { system: INSTRUCTIONS[language](count), prompt: question }
}

// List markers models put before each rephrasing: - * • ・ > 1. 1) 1: 1、 (1) ① Q1: **1.**
const LIST_MARKER =
  /^\s*(?:[-*•・>]+|(?:Q|q)?\d{1,2}\s*[.)．、:：]|[（(]\d{1,2}[)）]|[\u2460-\u2473\u2776-\u277f])\s*/
// A line that introduces the list instead of being in it.
const HEADER = /^(here (are|is)|sure\b|certainly\b|以下|はい[、。]|承知)|言い換え|書き換え/i

/** The model's lines, cleaned of list markers, emphasis and quotes, without headers or repeats of the question, at most `count`. */
export function parseRephrasings(text: string, question: string, count: number): string[] {
  const seen = new Set([question.trim().toLowerCase()])
  const queries: string[] = []
  // A reasoning model's thinking is no rephrasing (either form: <think>…</think>, or …</think>).
  for (const line of withoutThinking(text).split('\n')) {
    let cleaned = line.replace(/\*\*|__/g, '').trim()
    const marked = LIST_MARKER.test(cleaned)
    cleaned = cleaned
      .replace(LIST_MARKER, '')
      .replace(/^["'「『“]|["'」』”]$/g, '')
      .trim()
    // "Here are three rephrasings:" / 「以下は言い換えです：」 introduce the list; not queries.
    if (/[:：]$/.test(cleaned) || (!marked && HEADER.test(cleaned) && cleaned.length < 60)) continue
    if (cleaned.length < 2 || cleaned.length > 500) continue
    const key = cleaned.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    queries.push(cleaned)
    if (queries.length === count) break
  }
  return queries
}

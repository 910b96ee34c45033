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

/** The model's lines, cleaned of list markers and quotes, without repeats of the question, at most `count`. */
export function parseRephrasings(text: string, question: string, count: number): string[] {
  const seen = new Set([question.trim().toLowerCase()])
  const queries: string[] = []
  for (const line of text.split('\n')) {
    const cleaned = line
      .replace(/^\s*(?:[-*•・]|\d+[.)．、]|[（(]\d+[)）])\s*/, '')
      .replace(/^["'「『]|["'」』]$/g, '')
      .trim()
    if (cleaned.length < 2 || cleaned.length > 500) continue
    const key = cleaned.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    queries.push(cleaned)
    if (queries.length === count) break
  }
  return queries
}

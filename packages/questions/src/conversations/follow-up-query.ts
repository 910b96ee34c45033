import { analyzeQuery, analyzeText } from '@rag/keyword'
import type { ConversationTurn } from '../question-store.ts'

/** Words that point back at something said before (それ, その, it, they…). */
const REFERRING =
  /それ|これ|あれ|その|この|あの|そちら|こちら|あちら|そこ|同じ|前者|後者|\b(it|its|that|this|these|those|they|them|their|he|she|him|her|his|same)\b/i
/** What asks rather than names: never carried into the next question. */
const ASKING =
  /何|どこ|いつ|誰|どれ|どの|どう|いくら|いくつ|^(what|which|who|whom|whose|when|where|why|how)$/i
const segmenter = new Intl.Segmenter('ja', { granularity: 'word' })

/** The words of a question that name something (as written: 保証, 期間, return, policy). */
function namingWords(text: string): { surface: string; terms: string[] }[] {
  const words: { surface: string; terms: string[] }[] = []
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike || ASKING.test(segment)) continue
    const terms = analyzeText(segment, { question: true }).words
    if (terms.length > 0) words.push({ surface: segment, terms })
  }
  return words
}

/**
 * A follow-up made to stand alone without an LLM: when the question points back (a referring word,
 * or two content words at most) it gets the naming words of the turn before that it lacks, in
 * front (「それは延長できますか」 after 「保証期間は何年ですか」 → 「保証 期間 それは延長できますか」).
 * A question that stands on its own, or the first of a thread, is returned as it is.
 */
export function followUpQuery(question: string, history: ConversationTurn[]): string {
  const last = history.at(-1)
  if (!last) return question
  const own = new Set(analyzeQuery(question).words)
  if (!REFERRING.test(question.normalize('NFKC')) && own.size > 2) return question
  const carried = [
    ...new Set(
      namingWords(last.searchQuery ?? last.question)
        .filter((word) => word.terms.some((term) => !own.has(term)))
        .map((word) => word.surface),
    ),
  ]
  return carried.length > 0 ? `${carried.join(' ')} ${question}` : question
}

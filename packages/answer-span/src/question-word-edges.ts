import type { QuestionFrame } from './question-frame.ts'
import { spanTokens } from './span-tokens.ts'

// What joins a question's word to the answer at a span's edge: 大好物「の」タコ, 22億円「の」予算.
const JOINING = new Set(['の'])

/**
 * A span without the question's own words at its edges: the question asks what is new to it, so
 * 「本種の腸」 answers 「本種の臓器とは何」 with 腸, 「県民の結束」 answers 「県民の何を勝ち取る」 with
 * 結束. The span is kept whole when nothing of its own would be left. Japanese only: measured on
 * English (SQuAD dev), trimming "eight appearances" to "eight" helped one half and hurt the other.
 */
export function withoutQuestionWordEdges(span: string, frame: QuestionFrame): string {
  if (!frame.japanese) return span
  const tokens = spanTokens(span)
  let first = 0
  let last = tokens.length - 1
  // A run of tokens the question says all of: 大好物 is 大・好物, 本種 is 本・種 (a prefix or a
  // suffix carries no word of its own).
  const askedRun = (from: number, to: number) => {
    const content = tokens.slice(from, to + 1).filter((token) => token.content)
    return content.length > 0 && content.every((token) => frame.words.has(token.key))
  }
  // Only what a の joins (「本種の腸」, 「近視の進行」): a name's own head noun stays even when the
  // question says it (ワシントン大学 for どの大学).
  const joinAt = (from: number, to: number, step: 1 | -1) => {
    for (let i = from; step > 0 ? i <= to : i >= to; i += step)
      if (JOINING.has(tokens[i]?.text ?? '')) return i
    return -1
  }
  for (let join = joinAt(first, last, 1); join > first && join < last && askedRun(first, join - 1); ) {
    first = join + 1
    join = joinAt(first, last, 1)
  }
  for (let join = joinAt(last, first, -1); join > first && join < last && askedRun(join + 1, last); ) {
    last = join - 1
    join = joinAt(last, first, -1)
  }
  const kept = tokens.slice(first, last + 1)
  if (kept.length === tokens.length || !kept.some((token) => token.content && !frame.words.has(token.key)))
    return span
  return span.slice(kept[0]?.start ?? 0, kept.at(-1)?.end ?? span.length).trim()
}

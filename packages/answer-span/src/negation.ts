// Negation as it reads in a clause, Japanese and English: what turns a term to its opposite.

// A negation of what comes just before it: ない, ません, ず, ぬ, なし — but not obligation
// (しなければならない, なくてはいけない: must) nor double negation (ないわけではない, なくはない).
export const JA_NEGATION = /(な(い|く|かった|し)|ません|ず|ぬ|無し|なし)/
export const JA_NOT_NEGATION =
  /(なければ|なくては|なくちゃ|ねば)(なら|いけ|だめ)|ないと(いけ|だめ)|ない(わけ|こと)で?は(ない|ありません)|なくはない|なくもない|ないわけにはいかない/
export const EN_NEGATION = /\b(not|no|never|none|nor|cannot|without|neither)\b|n't\b/i
export const EN_NOT_NEGATION =
  /\bnot\s+only\b|\bno\s+later\b|\bnot\s+un(like|likely|common|usual|reasonable|important|known|related|aware|able)\b/i

// A full stop ends a clause only before a space or the end (not in 0.82, not in e.g.).
export const CLAUSE_END = /[。！？!?;；\n]|\.(?=\s|$)/

/** Whether the words after a term in its clause negate it (Japanese: its predicate's ending). */
export function negatedAfter(text: string, end: number, japanese: boolean): boolean {
  const rest = text.slice(end)
  const stop = rest.search(CLAUSE_END)
  const clause = stop >= 0 ? rest.slice(0, stop) : rest
  if (japanese) {
    // The predicate's ending: up to the next 、 that starts another clause (…ですが、…).
    const window = clause.slice(0, 16)
    if (JA_NOT_NEGATION.test(window)) return false
    return JA_NEGATION.test(window)
  }
  // "Parking is not available", "fees do not apply": a negation in the next few words.
  const words = clause
    .trim()
    .split(/[\s,]+/)
    .slice(0, 5)
    .join(' ')
  if (EN_NOT_NEGATION.test(words)) return false
  return EN_NEGATION.test(words)
}

/** Whether the words before a term (English: "not", "no", "never" just before it) negate it. */
export function negatedBefore(text: string, start: number, japanese: boolean): boolean {
  if (japanese) return false
  const before = text.slice(0, start)
  const clauseStart = before.search(/[.;!?][^.;!?]*$/)
  const words = before
    .slice(clauseStart + 1)
    .trim()
    .split(/\s+/)
    .slice(-4)
    .join(' ')
  if (EN_NOT_NEGATION.test(`${words} x`)) return false
  return EN_NEGATION.test(words)
}

/** Whether the clause a word stands in is negated in English: a "not", "no", "never" anywhere in it. */
export function clauseNegated(text: string, at: number): boolean {
  const before = text.slice(0, at)
  const start = before.search(/[;!?]|\.(?=\s)|,\s+(but|while|whereas|although)\b[^;!?]*$/i)
  const from = Math.max(start, 0)
  const rest = text.slice(at)
  const stop = rest.search(CLAUSE_END)
  const clause = text.slice(from, at + (stop < 0 ? rest.length : stop))
  const negations = clause.match(new RegExp(EN_NEGATION.source, 'gi'))?.length ?? 0
  return !EN_NOT_NEGATION.test(clause) && negations % 2 === 1
}

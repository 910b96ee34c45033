import nlp from 'compromise'

/** compromise's tags of one word: Verb, Adjective, Person, Place, Organization, Value… */
export type WordTags = ReadonlySet<string>

interface TaggedTerm {
  tags: string[]
  offset: { start: number }
}

/**
 * The part-of-speech and entity tags compromise gives each word of an English sentence, by the
 * word's start (UTF-16 offset). A sentence it cannot read gets no tags (shape decides then).
 */
export function englishTags(sentence: string): Map<number, WordTags> {
  const byStart = new Map<number, WordTags>()
  let sentences: { terms: TaggedTerm[] }[]
  try {
    sentences = nlp(sentence).json({ offset: true, terms: { offset: true } }) as { terms: TaggedTerm[] }[]
  } catch {
    return byStart
  }
  for (const { terms } of sentences) {
    for (const term of terms) byStart.set(term.offset.start, new Set(term.tags))
  }
  return byStart
}

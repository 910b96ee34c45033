/**
 * How often each character pair occurs in a text (NFKC, lower-cased, overlapping: ああ is twice in
 * あああ), counted from the text itself so the index keeps only each chunk's distinct pairs.
 */
export function bigramCounts(text: string, bigrams: string[]): number[] {
  if (bigrams.length === 0) return []
  const normalized = text.normalize('NFKC').toLowerCase()
  return bigrams.map((bigram) => {
    let count = 0
    for (let at = normalized.indexOf(bigram); at >= 0; at = normalized.indexOf(bigram, at + 1)) count++
    return count
  })
}

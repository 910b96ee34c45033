const sentenceSegmenter = new Intl.Segmenter('ja', { granularity: 'sentence' })

/** A text's sentences, as ICU cuts them (。！？ and . ! ? alike), never across a line break. */
export function sentencesOf(text: string): string[] {
  const sentences: string[] = []
  for (const line of text.split(/\n+/)) {
    for (const { segment } of sentenceSegmenter.segment(line)) {
      const sentence = segment.trim()
      if (sentence) sentences.push(sentence)
    }
  }
  return sentences
}

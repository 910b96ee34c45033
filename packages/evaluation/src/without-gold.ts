import type { Dataset } from './dataset.ts'

/** A small seeded generator (mulberry32): the same seed removes the same documents every run. */
function seeded(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * A calibration set for refusal: the gold documents of about `share` of the questions are taken
 * out of the corpus, so those questions (and any other whose every gold document went) become
 * unanswerable by construction, asked against a corpus full of near misses (the same article's
 * other paragraphs). The rest stay answerable.
 */
export function withGoldRemoved(dataset: Dataset, share: number, seed = 1): Dataset {
  const random = seeded(seed)
  const removed = new Set<string>()
  const answerable = dataset.questions.filter((question) => question.gold !== null)
  for (const question of answerable) {
    if (random() >= share) continue
    for (const docId of Object.keys(question.gold ?? {})) removed.add(docId)
  }
  const questions = dataset.questions.map((question) => {
    if (question.gold === null) return question
    const left = Object.entries(question.gold).filter(([docId]) => !removed.has(docId))
    return { ...question, gold: left.length > 0 ? Object.fromEntries(left) : null }
  })
  return {
    ...dataset,
    name: `${dataset.name}-without-gold-${Math.round(share * 100)}`,
    documents: dataset.documents.filter((document) => !removed.has(document.docId)),
    questions,
  }
}

import type { Dataset } from './dataset.ts'
import { seeded } from './seeded-random.ts'

/**
 * A calibration set for refusal: about `share` of the documents that answer some question are
 * taken out of the corpus, so the questions they answered (every one whose gold documents all
 * went) become unanswerable by construction, asked against a corpus full of near misses (the same
 * article's other paragraphs). The rest stay answerable; about `share` of the questions end up
 * unanswerable whatever the number of questions per document (choosing per question instead would
 * remove nearly every paragraph of SQuAD, which has five questions each).
 */
export function withGoldRemoved(dataset: Dataset, share: number, seed = 1): Dataset {
  const random = seeded(seed)
  const golds = new Set(dataset.questions.flatMap((question) => Object.keys(question.gold ?? {})))
  const removed = new Set([...golds].sort().filter(() => random() < share))
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

import type { Answerability, QuestionRecord } from '@rag/questions'
import type { EvalQuestion } from './dataset.ts'

/** One question under one config, as `questions-<config>.jsonl` records it. */
export interface QuestionOutcome {
  id: string
  query: string
  subtype: string | null
  answerable: boolean
  gold: string[]
  /** Rank (1-based) of the first relevant dataset document among the sources' documents; null if none. */
  firstRelevantRank: number | null
  /** questions format: the exact source expected, and its rank among the sources (null if absent). */
  expectedSource: string | null
  sourceRank: number | null
  /** The first ten sources: rank, source id, the dataset document it belongs to, score. */
  sources: { rank: number; sourceId: string; document: string | null; score: number }[]
  refused: boolean
  /** The answer as written (null for none), so a record can be read without the database. */
  answer: string | null
  /** The judgement of whether the passages answer, with its signals (what --fit-refusal learns from). */
  answerability: Answerability | null
  status: string
  degraded: string[]
  timings: Record<string, number>
  /** Whether a gold answer is inside the context an LLM would read (CONTEXT_TOKENS); null when not measured. */
  contextHasAnswer?: boolean | null
}

/** A question's ranking of dataset documents: sources mapped to their document, first occurrence kept. */
export function rankedDocuments(record: QuestionRecord, documents: Map<string, string>): string[] {
  const seen = new Set<string>()
  for (const source of record.sources) {
    const docId = documents.get(source.documentId)
    if (docId !== undefined) seen.add(docId)
  }
  return [...seen]
}

/** Every question's outcome: where its answer was found (document and exact source), and what came back. */
export function questionOutcomes(
  questions: EvalQuestion[],
  records: (QuestionRecord | undefined)[],
  documents: Map<string, string>,
  refusedAt: (record: QuestionRecord | undefined) => boolean,
): QuestionOutcome[] {
  return questions.map((question, i) => {
    const record = records[i]
    const ranked = record ? rankedDocuments(record, documents) : []
    const firstRelevant = ranked.findIndex((docId) => (question.gold?.[docId] ?? 0) > 0)
    const sourceIndex = question.expectedSource
      ? (record?.sources ?? []).findIndex((source) => source.sourceId === question.expectedSource)
      : -1
    return {
      id: question.id,
      query: question.query,
      subtype: question.subtype ?? null,
      answerable: question.gold !== null,
      gold: Object.keys(question.gold ?? {}),
      firstRelevantRank: firstRelevant >= 0 ? firstRelevant + 1 : null,
      expectedSource: question.expectedSource ?? null,
      sourceRank: sourceIndex >= 0 ? sourceIndex + 1 : null,
      sources: (record?.sources ?? []).slice(0, 10).map((source) => ({
        rank: source.rank,
        sourceId: source.sourceId,
        document: documents.get(source.documentId) ?? null,
        score: source.score,
      })),
      refused: refusedAt(record),
      answer: record?.answer ?? null,
      answerability: record?.answerability ?? null,
      status: record?.status ?? 'missing',
      degraded: record?.degraded ?? [],
      timings: record?.timings ?? {},
    }
  })
}

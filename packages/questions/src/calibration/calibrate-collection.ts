import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { judgePassages, rankingSettings, type SynonymSource, search } from '@rag/retrieval'
import { type CalibrationReport, crossValidatedFit } from './calibration-report.ts'
import { type StoredCalibration, saveCalibration } from './calibration-store.ts'

/** A team's question: answerable with the source that answers it, or marked unanswerable (source null). */
export interface CalibrationQuestion {
  question: string
  source: string | null
}

/** What a calibration needs at least, and reads at most. */
export const CALIBRATION_LIMITS = { minAnswerable: 5, minUnanswerable: 5, maxQuestions: 2000 }

export class CalibrationError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CalibrationError'
  }
}

export interface CalibrationDeps {
  pool: Pool
  retrieval: RetrievalSection
  synonyms: SynonymSource
  embedder?: Embedder | null
}

/**
 * Fits a collection's refusal judgement on its team's questions and stores it with the
 * collection (questions searching it alone are judged by it from then on). Each question is
 * searched and judged as an asked one is (the defaults: its passages, the signals over them); the
 * fit is cross-validated and the report says held-out figures before and after. Refused with a
 * CalibrationError, leaving the collection's earlier calibration as it was, when the questions
 * cannot make a judgement: too few of either kind, or sources the collection does not hold.
 */
export async function calibrateCollection(
  deps: CalibrationDeps,
  collection: string,
  questions: CalibrationQuestion[],
  updatedBy: string | null,
): Promise<StoredCalibration> {
  const answerable = questions.filter((q) => q.source !== null)
  const { minAnswerable, minUnanswerable, maxQuestions } = CALIBRATION_LIMITS
  if (questions.length > maxQuestions)
    throw new CalibrationError(`${questions.length} questions; at most ${maxQuestions} are read`)
  if (answerable.length < minAnswerable)
    throw new CalibrationError(
      `${answerable.length} answerable questions (with their source); at least ${minAnswerable} are needed`,
    )
  if (questions.length - answerable.length < minUnanswerable)
    throw new CalibrationError(
      `${questions.length - answerable.length} unanswerable questions (source null); at least ${minUnanswerable} are needed: questions the documents do not answer are what refusal is fitted on`,
    )
  const missing = await missingSources(deps.pool, collection, [
    ...new Set(answerable.map((q) => q.source as string)),
  ])
  if (missing.length > 0)
    throw new CalibrationError(
      `the collection ${JSON.stringify(collection)} holds no source ${missing
        .slice(0, 5)
        .map((s) => JSON.stringify(s))
        .join(', ')}${missing.length > 5 ? ` (and ${missing.length - 5} more)` : ''}`,
    )
  const filters = { collection }
  const synonyms = await deps.synonyms.forSearch(filters)
  const examples = []
  for (const { question, source } of questions) {
    const { hits } = await search(
      { pool: deps.pool, embedder: deps.embedder ?? null, synonyms },
      {
        query: question,
        mode: 'hybrid',
        limit: deps.retrieval.rerankTopK,
        keep: deps.retrieval.searchK,
        ...rankingSettings(deps.retrieval),
        collection,
      },
    )
    const { signals } = await judgePassages(
      deps.pool,
      question,
      hits.map((hit) => hit.chunkId),
      filters,
      synonyms,
      hits.length,
      0, // nobody reads why here
    )
    examples.push({ signals, answerable: source !== null })
  }
  // Fitting is a few seconds of arithmetic: let the process breathe first.
  await new Promise((resolve) => setImmediate(resolve))
  const { model, report } = crossValidatedFit(examples, deps.retrieval.refusalThreshold)
  return saveCalibration(deps.pool, {
    collection,
    model: {
      ...model,
      fittedOn: { collection, questions: questions.length, date: new Date().toISOString().slice(0, 10) },
    },
    report,
    updatedBy,
  })
}

/** Of these source ids, those no ready document of the collection has a section of. */
async function missingSources(pool: Pool, collection: string, sources: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ source: string }>(
    `SELECT s.source FROM unnest($2::text[]) AS s(source)
      WHERE NOT EXISTS (SELECT 1 FROM sections x JOIN documents d ON d.id = x.document_id AND d.active_hash = x.content_hash
                         WHERE d.collection = $1 AND x.source_id = s.source)`,
    [collection, sources],
  )
  return rows.map((row) => row.source)
}

export type { CalibrationReport }

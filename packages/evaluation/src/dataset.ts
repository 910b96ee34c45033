/** A document of the evaluation corpus: ingested through the upload path like any user file. */
export interface EvalDocument {
  /** The dataset's own id (BEIR corpus id, SQuAD context number, file name). */
  docId: string
  /** The file name it is uploaded under; hits map back to docId through it. */
  filename: string
  data: Uint8Array
}

export interface EvalQuestion {
  id: string
  query: string
  /**
   * Relevant documents and their grade (1 = relevant; BEIR grades more), or null for a question
   * the documents cannot answer (it must be refused).
   */
  gold: Record<string, number> | null
  /** For `questions` datasets: the exact source id expected first (e.g. faq.csv:r2). */
  expectedSource?: string
  /** Words a faithful answer contains, every one of them (questions and qa formats). */
  keywords: string[]
  /**
   * The gold answer texts, any one of which is right (SQuAD-style datasets: the annotators'
   * variants). Answers are scored against them as SQuAD does: exact match and F1.
   */
  answers?: string[]
  subtype?: string
}

export interface Dataset {
  name: string
  format: DatasetFormat
  documents: EvalDocument[]
  questions: EvalQuestion[]
}

export const DATASET_FORMATS = ['questions', 'qa', 'squad', 'beir'] as const
export type DatasetFormat = (typeof DATASET_FORMATS)[number]

/** A dataset that cannot be read, with where (file and line) when that is known. */
export class DatasetError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DatasetError'
  }
}

export const utf8 = (text: string) => new TextEncoder().encode(text)

/** Texts one of which shows the answer was found: the gold answers, or else the expected keywords. */
export const answerTexts = (question: EvalQuestion): string[] => question.answers ?? question.keywords

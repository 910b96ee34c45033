// The API's enumerations, defined once: the pipeline's packages, the routes' schemas, the client,
// the web app and the MCP tools all take them from here. No dependencies, so any process (even the
// parse sandbox) can import them.

/** A document's status: the stage working on it, or where it ended. */
export const DOCUMENT_STATUSES = [
  'queued',
  'parsing',
  'chunking',
  'embedding',
  'storing',
  'ready',
  'failed',
] as const
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number]

/** What a file was read as. */
export const SOURCE_TYPES = [
  'pdf',
  'csv',
  'markdown',
  'html',
  'text',
  'docx',
  'jsonl',
  'xlsx',
  'pptx',
  'image',
] as const
export type SourceType = (typeof SOURCE_TYPES)[number]

/** Which retrievers search: embeddings, keywords, or both fused. */
export const SEARCH_MODES = ['vector', 'keyword', 'hybrid'] as const
export type SearchMode = (typeof SEARCH_MODES)[number]

/** How a question is answered: by the LLM, with the best passage itself, or not at all (sources only). */
export const ANSWER_MODES = ['generate', 'extractive', 'none'] as const
export type AnswerMode = (typeof ANSWER_MODES)[number]

/** Where a question is: the stage working on it, or how it ended. */
export const QUESTION_STATUSES = [
  'queued',
  'retrieving',
  'reranking',
  'generating',
  'done',
  'failed',
] as const
export type QuestionStatus = (typeof QUESTION_STATUSES)[number]

// The API's enumerations, defined once: the pipeline's packages, the routes' schemas, the client,
// the web app and the MCP tools all take them from here. No dependencies, so any process (even the
// parse sandbox) and the web page can import them.

/** A document's status, in the order a document moves through them: the stage working on it, or where it ended. */
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

/** Where a document's pipeline ends: nothing more will happen to it until it is re-indexed or replaced. */
export const FINISHED_DOCUMENT_STATUSES = ['ready', 'failed'] as const satisfies readonly DocumentStatus[]
export const isDocumentFinished = (status: DocumentStatus | string): boolean =>
  (FINISHED_DOCUMENT_STATUSES as readonly string[]).includes(status)

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

/** The model OCR read a page with: horizontal text, or vertical (縦書き, read again with jpn_vert). */
export const OCR_DIRECTIONS = ['horizontal', 'vertical'] as const
export type OcrDirection = (typeof OCR_DIRECTIONS)[number]

/** Which retrievers search: both, their rankings merged (the default), keywords, or embeddings. */
export const SEARCH_MODES = ['hybrid', 'keyword', 'vector'] as const
export type SearchMode = (typeof SEARCH_MODES)[number]

/** The retrievers a passage can be found by: words (BM25) or meaning (the embedder). */
export const RETRIEVERS = ['keyword', 'vector'] as const
/** What decided whether a question is answered (docs/evaluation.md: answerability). */
export const REFUSAL_DECIDERS = ['words', 'reranker'] as const
export type Retriever = (typeof RETRIEVERS)[number]
export type RefusalDecider = (typeof REFUSAL_DECIDERS)[number]

/**
 * The kind of expression a question asks for (packages/answer-span/src/answer-type.ts): a short
 * answer is one of it — a yes or no, a term or name, a person, an organisation, a place, a date or
 * time (a range, the days it holds on), a number with its unit, an amount of money, a reason, a
 * way, or another thing.
 */
export const ANSWER_TYPES = [
  'yesno',
  'term',
  'person',
  'organisation',
  'place',
  'date',
  'number',
  'money',
  'reason',
  'method',
  'thing',
] as const
export type AnswerType = (typeof ANSWER_TYPES)[number]

/** Each kind of answer as people read it: the web app, the CLI and /v1 label a short answer so. */
export const ANSWER_TYPE_LABELS: Record<AnswerType, { ja: string; en: string }> = {
  yesno: { ja: 'はい／いいえ', en: 'yes/no' },
  term: { ja: '名称', en: 'term' },
  person: { ja: '人物', en: 'person' },
  organisation: { ja: '組織', en: 'organisation' },
  place: { ja: '場所', en: 'place' },
  date: { ja: '日時・期間', en: 'date or time' },
  number: { ja: '数量', en: 'number' },
  money: { ja: '金額', en: 'amount' },
  reason: { ja: '理由', en: 'reason' },
  method: { ja: '方法', en: 'method' },
  thing: { ja: '答え', en: 'answer' },
}

/**
 * The line that states a short answer, the same on every surface: 「短い答え（日時・期間）: 3年」,
 * "Short answer (date or time): 1603".
 */
export function shortAnswerLine(span: string, type: AnswerType | undefined, language: 'ja' | 'en'): string {
  const label = type ? ANSWER_TYPE_LABELS[type][language] : undefined
  return language === 'ja'
    ? `短い答え${label ? `（${label}）` : ''}: ${span}`
    : `Short answer${label ? ` (${label})` : ''}: ${span}`
}

/** How a question is answered: by the LLM, with the best passage itself, or not at all (sources only). */
export const ANSWER_MODES = ['generate', 'extractive', 'none'] as const
export type AnswerMode = (typeof ANSWER_MODES)[number]

/** Where a question is, in the order it moves through them: the stage working on it, or how it ended. */
export const QUESTION_STATUSES = [
  'queued',
  'retrieving',
  'reranking',
  'generating',
  'done',
  'failed',
  'cancelled',
] as const
export type QuestionStatus = (typeof QUESTION_STATUSES)[number]

/** Where a question ends: its answer (or failure, or its cancellation) is final. */
export const FINISHED_QUESTION_STATUSES = [
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly QuestionStatus[]
export const isQuestionFinished = (status: QuestionStatus | string): boolean =>
  (FINISHED_QUESTION_STATUSES as readonly string[]).includes(status)

/**
 * What a key or user may do, each role everything the one before may: read (search, ask, chat,
 * read documents), edit (upload, re-index, delete), administer (keys, audit log, dashboard,
 * metrics, every collection).
 */
export const ROLES = ['reader', 'editor', 'admin'] as const
export type Role = (typeof ROLES)[number]

/** Why a single sign-on did not end signed in (the page names each for the person). */
export const SIGN_IN_PROBLEMS = [
  'provider-unreachable',
  'no-request',
  'state-mismatch',
  'provider-refused',
  'code-rejected',
  'clock-skew',
  'token-invalid',
  'no-grant',
] as const
export type SignInProblem = (typeof SIGN_IN_PROBLEMS)[number]

/** What a person says of an answer: right (up) or wrong (down). */
export const FEEDBACK_VERDICTS = ['up', 'down'] as const
export type FeedbackVerdict = (typeof FEEDBACK_VERDICTS)[number]

/** Why an answer was wrong, in the words a reviewer acts on. */
export const FEEDBACK_REASONS = [
  'wrong-source',
  'should-have-refused',
  'should-have-answered',
  'incomplete',
] as const
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number]

/** Places a source syncs from (packages/sources reads each). */
export const SOURCE_KINDS = ['git', 's3', 'web', 'webdav'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

/** How a sync ended: done (everything read), partial (some items failed: nothing deleted), failed. */
export const SOURCE_SYNC_STATUSES = ['running', 'done', 'partial', 'failed'] as const
export type SourceSyncStatus = (typeof SOURCE_SYNC_STATUSES)[number]

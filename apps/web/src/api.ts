/** The gateway's API as the page uses it (same origin; a sign-in, when needed, rides in a cookie). */
import type {
  ApiCollection,
  ApiCollectionSynonyms,
  ApiConversation,
  ApiConversationDetail,
  ApiCreatedKey,
  ApiDocument,
  ApiDocumentChunksPage,
  ApiEvaluationQuestionsPage,
  ApiEvaluationRun,
  ApiEvaluationRunDetail,
  ApiFeedback,
  ApiKey,
  ApiQuestion,
  ApiSearchHit,
  ApiSearchResult,
  ApiSectionsPage,
  ApiSession,
  ApiSource,
  ApiSourceSync,
  AskOptions,
  FeedbackRequest,
} from '@rag/api-contract'

// The API contract's types (erased at build: nothing of zod reaches the page).
export type { DocumentStatus } from '@rag/api-contract/enums'
export type DocumentView = ApiDocument
export type DocumentChunksPage = ApiDocumentChunksPage
export type EvaluationRun = ApiEvaluationRun
export type EvaluationRunDetail = ApiEvaluationRunDetail
export type EvaluationQuestionsPage = ApiEvaluationQuestionsPage
// What a passage card shows: the fields a search hit and an answer's source share.
export type Passage = Pick<
  ApiSearchHit,
  'rank' | 'sourceId' | 'documentId' | 'title' | 'score' | 'text' | 'parentText' | 'heading'
> & {
  collection: string | null
  foundBy?: ApiSearchHit['foundBy']
  regions?: ApiSearchHit['regions']
  /** A text file's lines it stands in (a Git repository's manual: L12–30). */
  lines?: ApiSearchHit['lines']
  /** Why it was found (an answer's sources; search hits show their ranking instead). */
  why?: ApiQuestion['sources'][number]['why']
}
export type SearchResult = ApiSearchResult
export type Question = ApiQuestion
export type Conversation = ApiConversation
export type Session = ApiSession
export type KeyRecord = ApiKey
export type Source = ApiSource
export type SourceSync = ApiSourceSync
export type { SourceRequest } from '@rag/api-contract'
export type CollectionSynonyms = ApiCollectionSynonyms
export type { Role, SignInProblem } from '@rag/api-contract/enums'
export type ConversationDetail = ApiConversationDetail

/** The options the page sends with a question: the contract's. */
export type { AskOptions, FeedbackRequest } from '@rag/api-contract'
export type Feedback = ApiFeedback

/** An error the server explained: its message is meant for people. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Called when the server asks for a key, so the page can show the sign-in form. */
let onUnauthorized: () => void = () => {}
export const whenUnauthorized = (handler: () => void) => {
  onUnauthorized = handler
}

/**
 * The id of the sign-in this page made (GET /session says it), kept per origin — so per port, which
 * cookies are not — and shared by this origin's tabs. Sent with every request: a cookie that
 * another site on this host replaced names another sign-in, and the gateway refuses and clears it
 * instead of acting as whoever set it.
 */
const SIGN_IN_KEPT = 'rag.signIn'
const keptSignIn = () => {
  try {
    return localStorage.getItem(SIGN_IN_KEPT)
  } catch {
    return null
  }
}
/** Forgets the sign-in this page made: before signing in anew (a key, single sign-on) and on sign-out. */
export function forgetSignIn() {
  try {
    localStorage.removeItem(SIGN_IN_KEPT)
  } catch {
    // Storage blocked: nothing was kept.
  }
}
function keepSignIn(session: Session) {
  if (!session.session) return forgetSignIn()
  try {
    if (keptSignIn() === null) localStorage.setItem(SIGN_IN_KEPT, session.session)
  } catch {
    // Storage blocked: requests go unbound, as before sign-in.
  }
}

async function failure(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null
  if (response.status === 401) {
    forgetSignIn()
    onUnauthorized()
  }
  return new ApiError(response.status, body?.error?.message ?? `${response.status} ${response.statusText}`)
}

/** 503s waited out (the database or queue restarting) before the page shows the error. */
const UNAVAILABLE_RETRIES = 5

async function request<T>(path: string, given: RequestInit = {}): Promise<T> {
  const headers = new Headers(given.headers)
  const kept = keptSignIn()
  if (kept) headers.set('x-rag-session', kept)
  const init = { ...given, headers }
  let response = await fetch(path, { credentials: 'same-origin', ...init })
  // The database or the queue away for a moment: wait as the gateway says, and send it again (a
  // FormData or JSON body can be sent twice; nothing was completed the first time).
  for (let tries = 0; response.status === 503 && tries < UNAVAILABLE_RETRIES; tries++) {
    const seconds = Math.min(Number(response.headers.get('retry-after')) || 2, 30)
    await response.body?.cancel()
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
    response = await fetch(path, { credentials: 'same-origin', ...init })
  }
  if (!response.ok) throw await failure(response)
  return (response.status === 204 ? undefined : await response.json()) as T
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

export const api = {
  session: async () => {
    const session = await request<Session>('/session')
    keepSignIn(session)
    return session
  },
  signIn: (apiKey: string) => {
    forgetSignIn()
    return request<void>('/session', json('POST', { apiKey }))
  },
  signOut: async () => {
    try {
      await request<void>('/session', { method: 'DELETE' })
    } finally {
      forgetSignIn()
    }
  },
  listKeys: () => request<{ keys: KeyRecord[] }>('/keys'),
  listCollections: () => request<{ collections: ApiCollection[] }>('/collections'),
  createCollection: (name: string) => request<ApiCollection>('/collections', json('POST', { name })),
  listSources: () => request<{ sources: Source[] }>('/sources'),
  addSource: (source: unknown) => request<Source>('/sources', json('POST', source)),
  changeSource: (id: string, change: unknown) =>
    request<Source & { syncId: string | null }>(`/sources/${id}`, json('PATCH', change)),
  syncSource: (id: string) => request<{ syncId: string }>(`/sources/${id}/sync`, { method: 'POST' }),
  removeSource: (id: string) => request<void>(`/sources/${id}`, { method: 'DELETE' }),
  createKey: (name: string, role: string, collections: string[] | null) =>
    request<ApiCreatedKey>('/keys', json('POST', { name, role, collections })),
  revokeKey: (id: string) => request<KeyRecord>(`/keys/${id}`, { method: 'DELETE' }),
  synonyms: (collection: string) =>
    request<CollectionSynonyms>(`/collections/${encodeURIComponent(collection)}/synonyms`),
  saveSynonyms: (collection: string, rules: string) =>
    request<CollectionSynonyms>(
      `/collections/${encodeURIComponent(collection)}/synonyms`,
      json('PUT', { rules }),
    ),
  listDocuments: () => request<{ documents: DocumentView[] }>('/documents?limit=1000'),
  getDocument: (id: string) => request<DocumentView>(`/documents/${id}`),
  deleteDocument: (id: string) => request<void>(`/documents/${id}`, { method: 'DELETE' }),
  reindexDocument: (id: string) => request<unknown>(`/documents/${id}/reindex`, { method: 'POST' }),
  /** k null: the server's default number of passages. */
  /** k null: the server's default; collection '': every collection. */
  search: (query: string, mode: string, k: number | null, collection = '') =>
    request<SearchResult>(
      `/search?${new URLSearchParams({
        q: query,
        mode,
        ...(k === null ? {} : { k: String(k) }),
        ...(collection ? { collection } : {}),
      })}`,
    ),
  ask: (question: string, options: AskOptions) =>
    request<{ id: string }>('/ask', json('POST', { question, options })),
  getQuestion: (id: string) => request<Question>(`/ask/${id}`),
  /** A PDF page's size in points (what a passage's regions are measured in). */
  pageInfo: (documentId: string, page: number) =>
    request<{ page: number; pages: number; width: number; height: number }>(
      `/documents/${documentId}/pages/${page}`,
    ),
  runEvaluation: (collection: string) =>
    request<EvaluationRun>(`/collections/${encodeURIComponent(collection)}/evaluations`, { method: 'POST' }),
  listEvaluationRuns: (collection: string) =>
    request<{ runs: EvaluationRun[] }>(
      `/evaluations?${new URLSearchParams(collection ? { collection } : {})}`,
    ),
  getEvaluationRun: (id: string) => request<EvaluationRunDetail>(`/evaluations/${id}`),
  evaluationQuestions: (id: string, config: string, { offset, wrong }: { offset: number; wrong: boolean }) =>
    request<EvaluationQuestionsPage>(
      `/evaluations/${id}/questions?${new URLSearchParams({ config, offset: String(offset), limit: '50', wrong: String(wrong) })}`,
    ),
  /** How a document was cut (the inspector): a page of its chunks, those holding `q` or on `page`. */
  documentChunks: (documentId: string, filter: { q?: string; page?: number; offset?: number }) =>
    request<ApiDocumentChunksPage>(
      `/documents/${documentId}/chunks?${new URLSearchParams({
        limit: '50',
        offset: String(filter.offset ?? 0),
        ...(filter.q ? { q: filter.q } : {}),
        ...(filter.page ? { page: String(filter.page) } : {}),
      })}`,
    ),
  /** The sections around a cited one (its context): the page of sections that shows it. */
  sectionsAround: (documentId: string, sourceId: string) =>
    request<ApiSectionsPage>(
      `/documents/${documentId}/sections?${new URLSearchParams({ around: sourceId, limit: '5' })}`,
    ),
  listConversations: () => request<{ conversations: Conversation[] }>('/conversations'),
  createConversation: (collection: string | null) =>
    request<Conversation>('/conversations', json('POST', collection ? { collection } : {})),
  getConversation: (id: string) => request<ConversationDetail>(`/conversations/${id}`),
  renameConversation: (id: string, title: string) =>
    request<Conversation>(`/conversations/${id}`, json('PATCH', { title })),
  deleteConversation: (id: string) => request<void>(`/conversations/${id}`, { method: 'DELETE' }),
  giveFeedback: (questionId: string, feedback: FeedbackRequest) =>
    request<Feedback>(`/ask/${questionId}/feedback`, json('POST', feedback)),
  listFeedback: (filter: { collection?: string; verdict?: string; reason?: string }) =>
    request<{ feedback: Feedback[] }>(
      `/feedback?${new URLSearchParams(Object.entries(filter).filter(([, value]) => value) as [string, string][])}`,
    ),
  makeCase: (feedbackId: string, source: string | null) =>
    request<{ id: string; collection: string }>(`/feedback/${feedbackId}/case`, json('POST', { source })),
  say: (id: string, message: string, options: AskOptions) =>
    request<{ id: string }>(`/conversations/${id}/messages`, json('POST', { message, options })),
}

/** What the embed worker last said of its model (GET /healthz, which needs no key): null when it has not. */
export type ModelState =
  | { state: 'disabled' | 'loading' }
  | { state: 'ready'; model: string }
  | { state: 'unavailable'; model: string; error: string }
  | null

/** The embedding model's state; /healthz answers 503 with the same report when something is down. */
export async function embeddingModelState(): Promise<ModelState> {
  const response = await fetch('/healthz', { credentials: 'same-origin' })
  const report = (await response.json()) as { models?: { embedding?: ModelState } }
  return report.models?.embedding ?? null
}

/** The collections documents are in, from the document list. */
export const collectionsOf = (documents: DocumentView[]) =>
  [...new Set(documents.map((document) => document.collection))].sort()

/**
 * One file up, with the bytes sent reported as they go (fetch cannot report upload progress,
 * XMLHttpRequest can). Resolves to the new document, or rejects with the server's reason.
 */
export function uploadFile(
  file: File,
  onProgress: (fraction: number) => void,
  collection?: string,
): Promise<DocumentView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/documents')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    xhr.onerror = () => reject(new ApiError(0, 'network'))
    xhr.onload = () => {
      const body = JSON.parse(xhr.responseText || 'null') as {
        documents?: DocumentView[]
        error?: { message?: string }
      } | null
      const document = body?.documents?.[0]
      if (xhr.status === 202 && document) return resolve(document)
      if (xhr.status === 401) onUnauthorized()
      reject(new ApiError(xhr.status, body?.error?.message ?? `${xhr.status} ${xhr.statusText}`))
    }
    const form = new FormData()
    form.append('file', file)
    if (collection) form.append('collection', collection)
    xhr.send(form)
  })
}

/**
 * Where the original shows a cited place: a PDF page opens at it in the browser's viewer
 * (`#page=N`), a web page is its own address; other originals have no place to open at.
 */
export function originalLink(passage: Pick<Passage, 'documentId' | 'sourceId' | 'title'>): string | null {
  if (/^https?:\/\//.test(passage.title))
    return passage.sourceId.startsWith(passage.title) ? passage.sourceId : passage.title
  const page = /\.pdf:p(\d+)$/i.exec(passage.sourceId)?.[1]
  return page ? `/documents/${passage.documentId}/file#page=${page}` : null
}

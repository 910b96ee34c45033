import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'
import {
  type ApiAskAccepted,
  type ApiCalibration,
  type ApiCollection,
  type ApiCollectionSynonyms,
  type ApiCreatedKey,
  type ApiDocument,
  type ApiEvaluationCase,
  type ApiFeedback,
  type ApiKey,
  type ApiQuestion,
  type ApiSearchHit,
  type ApiSearchResult,
  type ApiSectionsPage,
  type ApiSource,
  type ApiSourceChanged,
  type ApiSourceSync,
  type AskOptions,
  apiKeySchema,
  askAcceptedSchema,
  type CreateConversationRequest,
  calibrationSchema,
  collectionListSchema,
  collectionSchema,
  collectionSynonymsSchema,
  conversationSchema,
  createdKeySchema,
  documentListSchema,
  documentSchema,
  errorSchema,
  evaluationCaseListSchema,
  type FeedbackRequest,
  feedbackSchema,
  isDocumentFinished,
  isQuestionFinished,
  keyListSchema,
  questionSchema,
  type SearchOptions,
  type SourceChange,
  type SourceRequest,
  searchResultSchema,
  sectionsPageSchema,
  sourceChangedSchema,
  sourceListSchema,
  sourceSchema,
  sourceSyncListSchema,
  sourceSyncStartedSchema,
  uploadResultSchema,
} from '@rag/api-contract'
import { pollUntil, type WaitOptions } from './poll-until.ts'

// The request and response types are the API contract's: one definition for the routes and their clients.
export type { ApiDocument, ApiQuestion, ApiSearchHit }
export type ApiSection = ApiSectionsPage['sections'][number]

export interface GatewayClient {
  listDocuments(query?: { collection?: string }): Promise<ApiDocument[]>
  /** A page of the document's sections (`next` names the following page, null at the end). */
  documentSections(id: string, page?: { limit?: number; offset?: number }): Promise<ApiSectionsPage>
  search(query: string, options?: SearchOptions): Promise<ApiSearchResult>
  /** Uploads a local file, named `name` (a relative path is kept) or its file name. */
  /** The document, with what the upload did (`created`, `updated`, or `unchanged`: the same content again). */
  upload(
    path: string,
    options: { collection?: string; tags?: string[]; name?: string },
  ): Promise<ApiDocument & { action: string }>
  getDocument(id: string): Promise<ApiDocument>
  /** Polls the document until it is ready or failed (the contract's finished states). */
  waitForDocument(id: string, options?: WaitOptions<ApiDocument>): Promise<ApiDocument>
  /** Has the gateway fetch a web page and ingest it (cited by its URL). */
  ingestUrl(url: string, options?: { collection?: string }): Promise<ApiDocument>
  ask(question: string, options?: AskOptions): Promise<ApiAskAccepted>
  getQuestion(id: string): Promise<ApiQuestion>
  /** Polls the question until it is done or failed (the contract's finished states). */
  waitForAnswer(id: string, options?: WaitOptions<ApiQuestion>): Promise<ApiQuestion>
  /** Cancels it (an answer being written stops); a question already finished is a GatewayError. */
  cancelQuestion(id: string): Promise<ApiQuestion>
  /** Starts a thread (named after its first message unless titled). */
  createConversation(options?: CreateConversationRequest): Promise<{ id: string }>
  /** Asks in a thread: a follow-up is rewritten to stand alone from its earlier turns. */
  say(conversationId: string, message: string, options?: AskOptions): Promise<ApiAskAccepted>
  /** A new key (admin): the key itself is in this answer only. */
  createKey(request: {
    name: string
    role: ApiKey['role']
    collections: string[] | null
  }): Promise<ApiCreatedKey>
  listKeys(): Promise<ApiKey[]>
  revokeKey(id: string): Promise<ApiKey>
  /** The collections this key may read, with their document counts. */
  listCollections(): Promise<ApiCollection[]>
  /** Begins a collection before its first document (admin): keys, sources and synonyms may then name it. */
  createCollection(name: string): Promise<ApiCollection>
  /** A collection's own synonyms (Solr format); `null` rules removes them. */
  collectionSynonyms(collection: string): Promise<ApiCollectionSynonyms>
  setCollectionSynonyms(collection: string, rules: string | null): Promise<ApiCollectionSynonyms>
  /** A collection's evaluation set (made from feedback by reviewers). */
  evaluationCases(collection: string): Promise<ApiEvaluationCase[]>
  /** Says whether the answer to one of this key's questions was right (again: it replaces it). */
  giveFeedback(questionId: string, feedback: FeedbackRequest): Promise<ApiFeedback>
  /** Sources kept in sync with collections (docs/sources.md). */
  addSource(request: SourceRequest): Promise<ApiSource>
  listSources(): Promise<ApiSource[]>
  getSource(id: string): Promise<ApiSource>
  /** Changes a source (credentials, schedule, settings); the source and the sync the change started. */
  changeSource(id: string, change: SourceChange): Promise<ApiSourceChanged>
  /** Asks for a sync now; the id of the sync that will run. */
  syncSource(id: string): Promise<string>
  sourceSyncs(id: string): Promise<ApiSourceSync[]>
  removeSource(id: string): Promise<void>
  /** Fits a collection's refusal judgement on its team's questions (source null: unanswerable). */
  calibrate(
    collection: string,
    questions: { question: string; source: string | null }[],
  ): Promise<ApiCalibration>
}

export class GatewayError extends Error {
  constructor(
    message: string,
    /** The gateway's HTTP status, when it answered (404: no such document or question). */
    readonly status?: number,
  ) {
    super(message)
  }
}

/** Connection errors that mean the socket was closed under the request, before any answer. */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'])
const closedUnderRequest = (error: unknown) =>
  CLOSED_UNDER_REQUEST.has((error as { cause?: { code?: string } }).cause?.code ?? '')

/** What went wrong on the way: fetch says only "fetch failed", its cause says what (ECONNREFUSED, a reset). */
function networkFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? error.cause.message : undefined
  return cause ? `${error.message}: ${cause}` : error.message
}

/** The gateway's HTTP API, as the CLI (and any script) uses it. */
export function createGatewayClient({
  baseUrl,
  apiKey,
  maxRateLimitWaits = 20,
  onRateLimited,
  fetch: send_ = fetch,
  wait = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000)),
}: {
  baseUrl: string
  apiKey?: string
  /** How requests are sent (default: the network; the gateway's own MCP endpoint calls its app in-process). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>
  /** How many 429s and 503s a request waits out (as `Retry-After` says) before it fails. */
  maxRateLimitWaits?: number
  /** Told each wait, so a command can say why it pauses. */
  onRateLimited?: (seconds: number, path: string, why: 'rate limited' | 'unavailable') => void
  /** How a wait the gateway asked for is waited (default: that many seconds of the clock). */
  wait?: (seconds: number) => Promise<void>
}): GatewayClient {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {}
  const unreachable = (error: unknown) =>
    new GatewayError(
      `cannot reach the gateway at ${baseUrl} (${networkFailure(error)}); start it with \`pnpm start\` or set GATEWAY_URL`,
    )
  const send = async (path: string, init: RequestInit) => {
    const go = () => send_(`${baseUrl}${path}`, { ...init, headers: { ...headers, ...init.headers } })
    try {
      return await go()
    } catch (error) {
      // A kept-alive connection the gateway closed just as this request went out (its idle
      // timeout): nothing was answered, so a request that changes nothing is sent once more.
      if ((init.method ?? 'GET') !== 'GET' || !closedUnderRequest(error)) throw unreachable(error)
      return go().catch((again: unknown) => {
        throw unreachable(again)
      })
    }
  }
  const call = async (path: string, init: RequestInit = {}) => {
    let response = await send(path, init)
    // Over a rate limit, or the database restarting (503): wait as long as the gateway says, then
    // send the same request again.
    for (
      let waits = 0;
      (response.status === 429 || response.status === 503) && waits < maxRateLimitWaits;
      waits++
    ) {
      const seconds = Number(response.headers.get('retry-after'))
      if (!(seconds >= 0 && seconds <= 300)) break
      await response.body?.cancel()
      onRateLimited?.(seconds, path, response.status === 503 ? 'unavailable' : 'rate limited')
      await wait(seconds)
      response = await send(path, init)
    }
    const body: unknown = await response.json().catch(() => ({}))
    if (!response.ok) {
      const error = errorSchema.safeParse(body)
      throw new GatewayError(error.success ? error.data.error.message : response.statusText, response.status)
    }
    return body
  }
  /**
   * An upload the gateway refused before reading it (a reader's key, the rate limit) can reach the
   * client as a reset connection rather than the refusal: the gateway stops reading the rest of
   * the body and closes, and TCP then drops the answer the client had not read yet ("fetch
   * failed"). When that happens, the same request without a file asks the gateway what it said;
   * a refusal of who asks is the answer, anything else leaves the network error standing.
   */
  const refusedOrLost = async <T>(path: string, upload: () => Promise<T>, probe: () => RequestInit) => {
    try {
      return await upload()
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== undefined) throw error
      const asked = await send(path, { method: 'POST', ...probe() }).catch(() => undefined)
      if (!asked || ![401, 403, 429].includes(asked.status)) throw error
      const said = errorSchema.safeParse(await asked.json().catch(() => ({})))
      throw new GatewayError(said.success ? said.data.error.message : asked.statusText, asked.status)
    }
  }
  /** The body as the contract says it is; anything else is the gateway's fault, named as such. */
  const expect = <T>(
    schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: Error } },
    path: string,
    body: unknown,
  ): T => {
    const parsed = schema.safeParse(body)
    if (!parsed.success)
      throw new GatewayError(
        `unexpected response from ${path} (${parsed.error.message.slice(0, 200)}); is GATEWAY_URL this platform's gateway, of the same version?`,
      )
    return parsed.data
  }
  const get = <T>(schema: Parameters<typeof expect<T>>[0], path: string) =>
    call(path).then((body) => expect(schema, path, body))
  /** A JSON body sent, the answer as the contract says it is. */
  const sendJson = <T>(
    schema: Parameters<typeof expect<T>>[0],
    method: string,
    path: string,
    json: unknown,
  ) =>
    call(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }).then(
      (body) => expect(schema, path, body),
    )
  const getQuestion = (id: string) => get(questionSchema, `/ask/${encodeURIComponent(id)}`)
  const getDocument = (id: string) => get(documentSchema, `/documents/${encodeURIComponent(id)}`)
  return {
    async upload(path, { collection, tags, name }) {
      const form = new FormData()
      form.append('file', new File([await readFile(path)], name ?? basename(path)))
      if (collection) form.append('collection', collection)
      if (tags?.length) form.append('tags', tags.join(','))
      const withoutFile = () => {
        const probe = new FormData()
        if (collection) probe.append('collection', collection)
        return { body: probe }
      }
      const body = expect(
        uploadResultSchema,
        '/documents',
        await refusedOrLost(
          '/documents',
          () => call('/documents', { method: 'POST', body: form }),
          withoutFile,
        ),
      )
      const [document] = body.documents
      if (!document) throw new GatewayError(body.rejected[0]?.error ?? 'rejected')
      return document
    },
    getDocument,
    waitForDocument: (id, options) =>
      pollUntil(
        () => getDocument(id),
        (document) => isDocumentFinished(document.status),
        options,
      ),
    async ingestUrl(url, { collection } = {}) {
      const body = await sendJson(uploadResultSchema, 'POST', '/documents/url', {
        url,
        ...(collection ? { collection } : {}),
      })
      const [document] = body.documents
      if (!document) throw new GatewayError(body.rejected[0]?.error ?? 'rejected')
      return document
    },
    createKey: async (request) => sendJson(createdKeySchema, 'POST', '/keys', request),
    listKeys: async () => (await get(keyListSchema, '/keys')).keys,
    listCollections: async () => (await get(collectionListSchema, '/collections')).collections,
    createCollection: async (name) => sendJson(collectionSchema, 'POST', '/collections', { name }),
    collectionSynonyms: async (collection) =>
      get(collectionSynonymsSchema, `/collections/${encodeURIComponent(collection)}/synonyms`),
    calibrate: async (collection, questions) =>
      sendJson(calibrationSchema, 'POST', `/collections/${encodeURIComponent(collection)}/calibration`, {
        questions,
      }),
    setCollectionSynonyms: async (collection, rules) => {
      const path = `/collections/${encodeURIComponent(collection)}/synonyms`
      return expect(
        collectionSynonymsSchema,
        path,
        await call(
          path,
          rules === null
            ? { method: 'DELETE' }
            : {
                method: 'PUT',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ rules }),
              },
        ),
      )
    },
    addSource: async (request) => sendJson(sourceSchema, 'POST', '/sources', request),
    changeSource: async (id, change) => {
      const path = `/sources/${encodeURIComponent(id)}`
      return sendJson(sourceChangedSchema, 'PATCH', path, change)
    },
    listSources: async () => (await get(sourceListSchema, '/sources')).sources,
    getSource: (id) => get(sourceSchema, `/sources/${encodeURIComponent(id)}`),
    syncSource: async (id) => {
      const path = `/sources/${encodeURIComponent(id)}/sync`
      return expect(sourceSyncStartedSchema, path, await call(path, { method: 'POST' })).syncId
    },
    sourceSyncs: async (id) =>
      (await get(sourceSyncListSchema, `/sources/${encodeURIComponent(id)}/syncs`)).syncs,
    removeSource: async (id) => {
      await call(`/sources/${encodeURIComponent(id)}`, { method: 'DELETE' })
    },
    revokeKey: async (id) =>
      expect(apiKeySchema, '/keys', await call(`/keys/${encodeURIComponent(id)}`, { method: 'DELETE' })),
    listDocuments: async ({ collection } = {}) =>
      (
        await get(
          documentListSchema,
          `/documents${collection ? `?collection=${encodeURIComponent(collection)}` : ''}`,
        )
      ).documents,
    documentSections: (id, { limit = 100, offset = 0 } = {}) =>
      get(
        sectionsPageSchema,
        `/documents/${encodeURIComponent(id)}/sections?${new URLSearchParams({ limit: String(limit), offset: String(offset) })}`,
      ),
    search: async (query, { k, mode, collection, parents } = {}) => {
      const params = new URLSearchParams({ q: query })
      if (k !== undefined) params.set('k', String(k))
      if (mode) params.set('mode', mode)
      if (collection) params.set('collection', collection)
      if (parents !== undefined) params.set('parents', String(parents))
      return get(searchResultSchema, `/search?${params}`)
    },
    ask: async (question, options = {}) => sendJson(askAcceptedSchema, 'POST', '/ask', { question, options }),
    getQuestion,
    cancelQuestion: async (id) => {
      const path = `/ask/${encodeURIComponent(id)}`
      return expect(questionSchema, path, await call(path, { method: 'DELETE' }))
    },
    waitForAnswer: (id, options) =>
      pollUntil(
        () => getQuestion(id),
        (question) => isQuestionFinished(question.status),
        options,
      ),
    createConversation: async (options = {}) =>
      sendJson(conversationSchema, 'POST', '/conversations', options),
    evaluationCases: async (collection) =>
      (await get(evaluationCaseListSchema, `/collections/${encodeURIComponent(collection)}/cases`)).cases,
    giveFeedback: async (questionId, feedback) => {
      const path = `/ask/${encodeURIComponent(questionId)}/feedback`
      return sendJson(feedbackSchema, 'POST', path, feedback)
    },
    say: async (conversationId, message, options = {}) => {
      const path = `/conversations/${encodeURIComponent(conversationId)}/messages`
      return sendJson(askAcceptedSchema, 'POST', path, { message, options })
    },
  }
}

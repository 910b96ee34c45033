import { readFile } from 'node:fs/promises'
import { basename } from 'node:path'

export interface RemoteDocument {
  id: string
  filename: string
  status: string
  progress: number
  chunkCount: number
  error: string | null
}

export interface RemoteAnswer {
  id: string
  status: string
  answer: string | null
  refused: boolean | null
  sources: { rank: number; sourceId: string; score: number; text: string }[]
  degraded: string[]
  error: string | null
}

export interface RemoteSection {
  sourceId: string
  heading: string | null
  text: string
}

export interface RemoteHit {
  rank: number
  sourceId: string
  documentId: string
  title: string
  score: number
  text: string
}

export interface GatewayClient {
  listDocuments(query?: { collection?: string }): Promise<RemoteDocument[]>
  /** A page of the document's sections (`next` names the following page, null at the end). */
  documentSections(
    id: string,
    page?: { limit?: number; offset?: number },
  ): Promise<{
    id: string
    filename: string
    status: string
    total: number
    next: string | null
    sections: RemoteSection[]
  }>
  search(
    query: string,
    options?: { k?: number; mode?: string; collection?: string },
  ): Promise<{ hits: RemoteHit[]; degraded: string[] }>
  /** Uploads a local file, named `name` (a relative path is kept) or its file name. */
  upload(
    path: string,
    options: { collection?: string; tags?: string[]; name?: string },
  ): Promise<RemoteDocument>
  getDocument(id: string): Promise<RemoteDocument>
  ask(question: string, options: Record<string, unknown>): Promise<{ id: string }>
  getAnswer(id: string): Promise<RemoteAnswer>
}

export class GatewayError extends Error {}

/** The gateway's HTTP API, as the CLI (and any script) uses it. */
export function createGatewayClient({
  baseUrl,
  apiKey,
}: {
  baseUrl: string
  apiKey?: string
}): GatewayClient {
  const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {}
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      ...init,
      headers: { ...headers, ...init.headers },
    }).catch((error: unknown) => {
      throw new GatewayError(
        `cannot reach the gateway at ${baseUrl} (${error instanceof Error ? error.message : error}); start it with \`pnpm start\` or set GATEWAY_URL`,
      )
    })
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
    if (!response.ok) {
      const message = (body.error as { message?: string } | undefined)?.message ?? response.statusText
      throw new GatewayError(message)
    }
    return body
  }
  return {
    async upload(path, { collection, tags, name }) {
      const form = new FormData()
      form.append('file', new File([await readFile(path)], name ?? basename(path)))
      if (collection) form.append('collection', collection)
      if (tags?.length) form.append('tags', tags.join(','))
      const body = await call('/documents', { method: 'POST', body: form })
      const [document] = body.documents as RemoteDocument[]
      if (!document) throw new GatewayError((body.rejected as { error: string }[])[0]?.error ?? 'rejected')
      return document
    },
    getDocument: async (id) =>
      (await call(`/documents/${encodeURIComponent(id)}`)) as unknown as RemoteDocument,
    listDocuments: async ({ collection } = {}) =>
      (
        (await call(
          `/documents${collection ? `?collection=${encodeURIComponent(collection)}` : ''}`,
        )) as unknown as {
          documents: RemoteDocument[]
        }
      ).documents,
    documentSections: async (id, { limit = 100, offset = 0 } = {}) =>
      (await call(
        `/documents/${encodeURIComponent(id)}/sections?${new URLSearchParams({ limit: String(limit), offset: String(offset) })}`,
      )) as unknown as Awaited<ReturnType<GatewayClient['documentSections']>>,
    search: async (query, { k, mode, collection } = {}) => {
      const params = new URLSearchParams({ q: query })
      if (k !== undefined) params.set('k', String(k))
      if (mode) params.set('mode', mode)
      if (collection) params.set('collection', collection)
      return (await call(`/search?${params}`)) as unknown as { hits: RemoteHit[]; degraded: string[] }
    },
    ask: async (question, options) =>
      (await call('/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question, options }),
      })) as unknown as { id: string },
    getAnswer: async (id) => (await call(`/ask/${id}`)) as unknown as RemoteAnswer,
  }
}

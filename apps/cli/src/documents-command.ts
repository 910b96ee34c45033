import type { Writable } from 'node:stream'
import type { ApiDocument } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'

export interface DocumentsCommandOptions {
  client: GatewayClient
  output: Writable
  collection?: string
  json?: boolean
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

/** The pages a document is searchable without, and why the first of them was not read. */
export function missingOf({ missingPages }: { missingPages: { page: number; reason: string }[] }): string {
  const [first] = missingPages
  if (!first) return ''
  const pages = missingPages.map(({ page }) => page).join(', ')
  return `; ${plural(missingPages.length, 'page')} not read (${pages}): page ${first.page}: ${first.reason}`
}

/** `rag documents`: a line per document (status, chunks, name, and why it failed). */
export async function runDocumentsCommand({ client, output, collection, json }: DocumentsCommandOptions) {
  const documents = await client.listDocuments({ collection })
  if (json) {
    output.write(`${JSON.stringify(documents, null, 2)}\n`)
    return 0
  }
  if (documents.length === 0) output.write('no documents yet: add some with `rag ingest PATH`\n')
  // The collection column as wide as its longest name: the same file in two collections is two lines.
  const width = Math.max(0, ...documents.map((document) => document.collection.length))
  for (const document of documents) output.write(`${documentLine(document, width)}\n`)
  return 0
}

type ListedDocument = Parameters<typeof missingOf>[0] &
  Pick<ApiDocument, 'status' | 'collection' | 'filename' | 'error' | 'chunkCount' | 'ocrPages'>

/** A document as `rag documents` lists it: status, collection, name, then chunks or why it failed. */
export function documentLine(document: ListedDocument, collectionWidth: number): string {
  const detail =
    document.status === 'failed' ? `  ${document.error ?? ''}` : `  ${plural(document.chunkCount, 'chunk')}`
  const ocr = document.ocrPages ? `, OCR ${document.ocrPages.read}/${document.ocrPages.total} pages` : ''
  return `${document.status.padEnd(9)} ${document.collection.padEnd(collectionWidth)}  ${document.filename}${detail}${ocr}${missingOf(document)}`
}

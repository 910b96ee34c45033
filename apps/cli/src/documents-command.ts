import type { Writable } from 'node:stream'
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
  for (const document of documents) {
    const detail =
      document.status === 'failed' ? `  ${document.error ?? ''}` : `  ${plural(document.chunkCount, 'chunk')}`
    const ocr = document.ocrPages ? `, OCR ${document.ocrPages.read}/${document.ocrPages.total} pages` : ''
    output.write(`${document.status.padEnd(9)} ${document.filename}${detail}${ocr}${missingOf(document)}\n`)
  }
  return 0
}

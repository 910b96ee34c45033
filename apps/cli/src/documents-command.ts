import type { Writable } from 'node:stream'
import type { GatewayClient } from '@rag/gateway-client'

export interface DocumentsCommandOptions {
  client: GatewayClient
  output: Writable
  collection?: string
  json?: boolean
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

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
    output.write(`${document.status.padEnd(9)} ${document.filename}${detail}\n`)
  }
  return 0
}

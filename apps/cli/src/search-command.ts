import type { Writable } from 'node:stream'
import type { SearchOptions } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'

export interface SearchCommandOptions {
  query: string
  options: SearchOptions
  client: GatewayClient
  output: Writable
  json?: boolean
}

/** `rag search QUERY`: one block per passage (rank, source, score, the passage's first lines). */
export async function runSearchCommand({ query, options, client, output, json }: SearchCommandOptions) {
  const result = await client.search(query, options)
  if (json) {
    output.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  }
  if (result.hits.length === 0) output.write('no passage matches\n')
  for (const hit of result.hits) {
    const text = hit.text.replace(/\s+/g, ' ').trim()
    output.write(
      `${hit.rank}. ${hit.sourceId}${hit.lines ? ` (lines ${hit.lines.from}–${hit.lines.to})` : ''}  (${hit.score.toFixed(3)})\n   ${text.slice(0, 300)}${text.length > 300 ? '…' : ''}\n`,
    )
  }
  if (result.degraded.length > 0) output.write(`(answered without: ${result.degraded.join(', ')})\n`)
  return 0
}

import type { Writable } from 'node:stream'
import type { ApiCollection } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'

export type CollectionsAction = 'create' | 'list'

export interface CollectionsCommandOptions {
  client: GatewayClient
  output: Writable
  action: CollectionsAction
  /** create: the new collection's name. */
  name?: string
  json?: boolean
}

const line = (collection: ApiCollection) =>
  `${collection.name}  ${collection.documents} document${collection.documents === 1 ? '' : 's'}\n`

/** `rag collections list|create <name>`: the names every other command's --collection may take. */
export async function runCollectionsCommand(options: CollectionsCommandOptions): Promise<number> {
  const { client, output, json } = options
  if (options.action === 'create') {
    if (!options.name) throw new Error('rag collections create needs the new collection’s name')
    const made = await client.createCollection(options.name)
    output.write(json ? `${JSON.stringify(made, null, 2)}\n` : `created ${line(made)}`)
    return 0
  }
  const collections = await client.listCollections()
  if (json) output.write(`${JSON.stringify(collections, null, 2)}\n`)
  else for (const collection of collections) output.write(line(collection))
  return 0
}

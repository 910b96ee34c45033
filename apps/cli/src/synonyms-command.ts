import type { Writable } from 'node:stream'
import type { GatewayClient } from '@rag/gateway-client'
import { readNamedFile } from './read-named-file.ts'

export type SynonymsAction = 'show' | 'set' | 'clear'

export interface SynonymsCommandOptions {
  client: GatewayClient
  output: Writable
  action: SynonymsAction
  collection: string
  /** set: the Solr synonyms file (`有休, 年次有給休暇` / `PTO => 年次有給休暇`). */
  file?: string
}

/** `rag synonyms show|set|clear --collection hr [FILE]`: a collection's own synonyms (an editor's work). */
export async function runSynonymsCommand(options: SynonymsCommandOptions): Promise<number> {
  const { client, output, collection } = options
  if (options.action === 'set') {
    if (!options.file)
      throw new Error('rag synonyms set needs the synonyms file (one rule a line: a, b or a => b)')
    const saved = await client.setCollectionSynonyms(
      collection,
      await readNamedFile(options.file, 'the synonyms file'),
    )
    output.write(`${collection}: ${saved.ruleCount} rules, used from the next question on\n`)
    return 0
  }
  if (options.action === 'clear') {
    await client.setCollectionSynonyms(collection, null)
    output.write(
      `${collection}: no synonyms of its own (Sudachi's dictionary still applies unless SYNONYMS=off)\n`,
    )
    return 0
  }
  const current = await client.collectionSynonyms(collection)
  output.write(current.rules ? `${current.rules.trimEnd()}\n` : `${collection} has no synonyms of its own\n`)
  return 0
}

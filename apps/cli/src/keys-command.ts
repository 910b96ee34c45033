import type { Writable } from 'node:stream'
import type { ApiKey } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'

export type KeysAction = 'create' | 'list' | 'revoke'

export interface KeysCommandOptions {
  client: GatewayClient
  output: Writable
  action: KeysAction
  /** create: its name, role and collections (none: all); revoke: the key's id. */
  name?: string
  role?: ApiKey['role']
  collections?: string[]
  id?: string
  json?: boolean
}

const line = (key: ApiKey) =>
  `${key.revokedAt ? 'revoked' : 'active '} ${key.id}  ${key.prefix}…  ${key.role.padEnd(6)} ${
    key.collections ? key.collections.join(',') : '(all collections)'
  }  ${key.name}\n`

/** `rag keys create|list|revoke`: the gateway's keys (an admin key's work). */
export async function runKeysCommand(options: KeysCommandOptions): Promise<number> {
  const { client, output, json } = options
  if (options.action === 'create') {
    const made = await client.createKey({
      name: options.name ?? `${options.role ?? 'reader'} key`,
      role: options.role ?? 'reader',
      collections: options.collections && options.collections.length > 0 ? options.collections : null,
    })
    if (json) output.write(`${JSON.stringify(made, null, 2)}\n`)
    else output.write(`${line(made)}key (shown this once; only its hash is kept): ${made.key}\n`)
    return 0
  }
  if (options.action === 'revoke') {
    if (!options.id) throw new Error('rag keys revoke needs the key id (rag keys list shows them)')
    const revoked = await client.revokeKey(options.id)
    output.write(json ? `${JSON.stringify(revoked, null, 2)}\n` : line(revoked))
    return 0
  }
  const keys = await client.listKeys()
  if (json) output.write(`${JSON.stringify(keys, null, 2)}\n`)
  else if (keys.length === 0) output.write('no keys yet: make one with `rag keys create --role reader`\n')
  else for (const key of keys) output.write(line(key))
  return 0
}

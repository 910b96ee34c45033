import type { Writable } from 'node:stream'
import type { ApiSource, SourceChange } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'
import { byName, followSync, type SourceAddOptions, sourceRequestOf } from './sources-command.ts'

/** What `rag sources change` takes: the add command's place and credential options, and two more. */
export type SourceChangeOptions = Omit<Partial<SourceAddOptions>, 'kind' | 'collection' | 'every'> & {
  /** Minutes between syncs; `false` (--no-schedule): only when asked. */
  every?: number
  schedule?: boolean
  /** `false` (--no-credentials): remove them. */
  credentials?: boolean
}

const SETTINGS = ['url', 'depth', 'bucket', 'prefix', 'region', 'endpoint', 'ref', 'path'] as const
const CREDENTIALS = [
  'username',
  'passwordEnv',
  'tokenEnv',
  'sshKeyFile',
  'accessKeyId',
  'secretKeyEnv',
] as const

/**
 * The change `rag sources change` sends: settings given merged into the source's own (sent whole),
 * credentials given read as `add` reads them (from variables and files) and sent whole, or none.
 */
export async function sourceChangeOf(
  source: ApiSource,
  options: SourceChangeOptions,
  env: Record<string, string | undefined>,
): Promise<SourceChange> {
  const given = Object.fromEntries(
    SETTINGS.flatMap((key) => (options[key] === undefined ? [] : [[key, options[key]]])),
  )
  const change: SourceChange = {}
  if (Object.keys(given).length > 0) change.settings = { ...source.settings, ...given }
  if (options.credentials === false) change.credentials = null
  else if (CREDENTIALS.some((key) => options[key] !== undefined)) {
    // The add command's reading of them, on the source's own kind and place.
    const settings = (change.settings ?? source.settings) as Partial<SourceAddOptions>
    const request = await sourceRequestOf(
      source.name,
      { ...settings, ...options, kind: source.kind, collection: source.collection },
      env,
    )
    change.credentials = Object.fromEntries(
      Object.entries(request.credentials ?? {}).filter((entry): entry is [string, string] =>
        Boolean(entry[1]),
      ),
    )
  }
  if (options.schedule === false) change.intervalMinutes = null
  else if (options.every !== undefined) change.intervalMinutes = options.every
  if (Object.keys(change).length === 0)
    throw new Error(
      'nothing to change: give settings (--url, --depth, --ref…), credentials, --every or --no-schedule',
    )
  return change
}

/**
 * `rag sources change NAME …`: changes a source and, when the change started a sync (new settings
 * or credentials), follows it: exit 0 when it was done, 1 when partial or failed — so a token
 * replaced is seen working, or its refusal said.
 */
export async function changeSourceCommand(
  client: GatewayClient,
  output: Writable,
  name: string,
  options: SourceChangeOptions,
  env: Record<string, string | undefined>,
  { wait = true, pollMs = 1000 }: { wait?: boolean; pollMs?: number } = {},
): Promise<number> {
  const source = await byName(client, name)
  const changed = await client.changeSource(source.id, await sourceChangeOf(source, options, env))
  const schedule = changed.intervalMinutes ? `every ${changed.intervalMinutes} min` : 'when asked'
  output.write(
    `${name}: changed (${changed.hasCredentials ? 'with credentials' : 'no credentials'}, synced ${schedule})\n`,
  )
  if (!changed.syncId) return 0
  output.write(`${name}: sync ${changed.syncId} asked\n`)
  return wait ? followSync(client, output, name, source.id, changed.syncId, pollMs) : 0
}

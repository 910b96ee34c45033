import type { Writable } from 'node:stream'
import type { ApiSource, ApiSourceSync, SourceRequest } from '@rag/api-contract'
import type { GatewayClient } from '@rag/gateway-client'
import { readNamedFile } from './read-named-file.ts'

export interface SourceAddOptions {
  kind: SourceRequest['kind']
  collection: string
  url?: string
  bucket?: string
  prefix?: string
  region?: string
  endpoint?: string
  ref?: string
  path?: string
  depth?: number
  every?: number
  username?: string
  /** Secrets come from the environment or a file, never the command line (which others can read). */
  passwordEnv?: string
  tokenEnv?: string
  sshKeyFile?: string
  accessKeyId?: string
  secretKeyEnv?: string
}

const secretFrom = (env: Record<string, string | undefined>, name: string | undefined, what: string) => {
  if (!name) return undefined
  const value = env[name]
  if (!value) throw new Error(`${what}: the variable ${name} is not set`)
  return value
}

/** The request `rag sources add` sends, from its options (secrets read from variables and files). */
export async function sourceRequestOf(
  name: string,
  options: SourceAddOptions,
  env: Record<string, string | undefined>,
): Promise<SourceRequest> {
  const need = (value: string | undefined, flag: string) => {
    if (!value) throw new Error(`a ${options.kind} source needs ${flag}`)
    return value
  }
  const common = { name, collection: options.collection, intervalMinutes: options.every ?? null }
  if (options.kind === 'webdav') {
    const password = secretFrom(env, options.passwordEnv, '--password-env')
    return {
      ...common,
      kind: 'webdav',
      settings: { url: need(options.url, '--url') },
      ...(options.username || password ? { credentials: { username: options.username, password } } : {}),
    }
  }
  if (options.kind === 'web') {
    const password = secretFrom(env, options.passwordEnv, '--password-env')
    const token = secretFrom(env, options.tokenEnv, '--token-env')
    return {
      ...common,
      kind: 'web',
      settings: {
        url: need(options.url, '--url'),
        ...(options.depth !== undefined ? { depth: options.depth } : {}),
      },
      ...(options.username || password || token
        ? { credentials: { username: options.username, password, token } }
        : {}),
    }
  }
  if (options.kind === 's3') {
    const secretAccessKey = secretFrom(env, options.secretKeyEnv, '--secret-key-env')
    return {
      ...common,
      kind: 's3',
      settings: {
        bucket: need(options.bucket, '--bucket'),
        ...(options.prefix ? { prefix: options.prefix } : {}),
        ...(options.region ? { region: options.region } : {}),
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      },
      ...(options.accessKeyId || secretAccessKey
        ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey } }
        : {}),
    }
  }
  const token = secretFrom(env, options.tokenEnv, '--token-env')
  const sshKey = options.sshKeyFile ? await readNamedFile(options.sshKeyFile, 'the SSH key file') : undefined
  return {
    ...common,
    kind: 'git',
    settings: {
      url: need(options.url, '--url'),
      ...(options.ref ? { ref: options.ref } : {}),
      ...(options.path ? { path: options.path } : {}),
    },
    ...(token || sshKey ? { credentials: { token, sshKey } } : {}),
  }
}

const place = (source: ApiSource) =>
  String(
    source.kind === 's3'
      ? `s3://${source.settings.bucket}/${source.settings.prefix ?? ''}`
      : source.settings.url,
  )

/** One line for a sync: its outcome and counts, its error. */
export function syncLine(sync: ApiSourceSync): string {
  const counts = `${sync.seen} seen, ${sync.added} new, ${sync.changed} changed, ${sync.unchanged} unchanged, ${sync.deleted} deleted, ${sync.failed} failed`
  return `${sync.status}: ${counts}${sync.ignored ? `, ${sync.ignored} not documents` : ''}${sync.error ? ` — ${sync.error}` : ''}`
}

/** `rag sources list`: name, kind, collection, place, schedule, last sync. */
export async function listSourcesCommand(client: GatewayClient, output: Writable): Promise<number> {
  const sources = await client.listSources()
  if (sources.length === 0) output.write('no sources (rag sources add NAME --kind web|webdav|s3|git …)\n')
  for (const source of sources)
    output.write(
      `${source.name}\t${source.kind}\t${source.collection}\t${place(source)}\t${source.intervalMinutes ? `every ${source.intervalMinutes} min` : 'when asked'}\t${source.lastSync ? syncLine(source.lastSync) : 'never synced'}\n`,
    )
  return 0
}

/**
 * The source a command names: NAME, or COLLECTION/NAME when collections this key sees each have a
 * source of that name (a name is its collection's).
 */
export const byName = async (client: GatewayClient, name: string) => {
  const sources = await client.listSources()
  const named = sources.filter((candidate) => candidate.name === name)
  const qualified = sources.filter((candidate) => `${candidate.collection}/${candidate.name}` === name)
  const [source, ...others] = qualified.length > 0 ? qualified : named
  if (!source) throw new Error(`no source named ${JSON.stringify(name)} that this key sees`)
  if (others.length > 0)
    throw new Error(
      `${others.length + 1} sources are named ${JSON.stringify(name)} (${[source, ...others].map((s) => `${s.collection}/${s.name}`).join(', ')}): name one as COLLECTION/NAME`,
    )
  return source
}

/**
 * `rag sources sync NAME`: asks for a sync and follows it to its end, a line each time its counts
 * move; exits 0 when it was done, 1 when partial or failed (with the reasons).
 */
export async function syncSourceCommand(
  client: GatewayClient,
  output: Writable,
  name: string,
  { wait = true, pollMs = 1000 }: { wait?: boolean; pollMs?: number } = {},
): Promise<number> {
  const source = await byName(client, name)
  const syncId = await client.syncSource(source.id)
  output.write(`${name}: sync ${syncId} asked\n`)
  return wait ? followSync(client, output, name, source.id, syncId, pollMs) : 0
}

/** Follows a sync to its end, a line each time its counts move: 0 when done, 1 when partial or failed. */
export async function followSync(
  client: GatewayClient,
  output: Writable,
  name: string,
  sourceId: string,
  syncId: string,
  pollMs = 1000,
): Promise<number> {
  let said = ''
  for (;;) {
    const sync = (await client.sourceSyncs(sourceId)).find((candidate) => candidate.id === syncId)
    if (sync) {
      const line = syncLine(sync)
      if (line !== said) output.write(`${name}: ${line}\n`)
      said = line
      if (sync.status !== 'running') {
        for (const failure of sync.failures) output.write(`  ${failure.key}: ${failure.reason}\n`)
        return sync.status === 'done' ? 0 : 1
      }
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

export async function removeSourceCommand(
  client: GatewayClient,
  output: Writable,
  name: string,
): Promise<number> {
  const source = await byName(client, name)
  await client.removeSource(source.id)
  output.write(`${name}: removed, with the documents it brought\n`)
  return 0
}

import type { Writable } from 'node:stream'
import type { GatewayClient, RemoteDocument } from '@rag/gateway-client'
import { collectFiles } from '@rag/gateway-client'
import { MultiBar, Presets } from 'cli-progress'

const STAGES = ['queued', 'parsing', 'chunking', 'embedding', 'storing', 'ready']

export interface IngestCommandOptions {
  paths: string[]
  client: GatewayClient
  output: Writable & { isTTY?: boolean }
  collection?: string
  tags?: string[]
  pollMs?: number
}

/**
 * `pnpm ingest PATH...`: uploads every supported file, shows each document moving through the
 * stages, and returns 0 when all are ready, 1 when any failed or was refused (with the reasons).
 */
export async function runIngestCommand({
  paths,
  client,
  output,
  collection,
  tags,
  pollMs = 300,
}: IngestCommandOptions): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  const { files, skipped } = await collectFiles(paths)
  for (const { path, reason } of skipped) write(`skipped ${path}: ${reason}`)
  if (files.length === 0) {
    write('nothing to ingest')
    return 1
  }
  const problems: string[] = skipped.map(({ path, reason }) => `${path}: ${reason}`)
  const uploaded: { path: string; document: RemoteDocument }[] = []
  for (const { path, name } of files) {
    try {
      uploaded.push({ path, document: await client.upload(path, { collection, tags, name }) })
    } catch (error) {
      problems.push(`${path}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  const bars = output.isTTY
    ? new MultiBar(
        { format: ' {bar} {stage} {file}', hideCursor: true, stream: output as NodeJS.WriteStream },
        Presets.shades_grey,
      )
    : null
  const state = new Map(
    uploaded.map(({ path, document }) => [
      document.id,
      { path, document, bar: bars?.create(STAGES.length - 1, 0, { stage: document.status, file: path }) },
    ]),
  )
  const finished = (status: string) => status === 'ready' || status === 'failed'
  let lastStatus = new Map<string, string>()
  while ([...state.values()].some(({ document }) => !finished(document.status))) {
    await new Promise((resolve) => setTimeout(resolve, pollMs))
    for (const entry of state.values()) {
      if (finished(entry.document.status)) continue
      entry.document = await client.getDocument(entry.document.id)
      const { status, progress } = entry.document
      const step = status === 'failed' ? 0 : STAGES.indexOf(status) + (status === 'storing' ? progress : 0)
      entry.bar?.update(Math.min(step, STAGES.length - 1), { stage: status, file: entry.path })
      if (!bars && lastStatus.get(entry.document.id) !== status) write(`${entry.path}: ${status}`)
    }
    lastStatus = new Map([...state.values()].map(({ document }) => [document.id, document.status]))
  }
  bars?.stop()

  for (const { path, document } of state.values()) {
    if (document.status === 'failed') problems.push(`${path}: ${document.error ?? 'failed'}`)
    else write(`ready ${path} (${document.chunkCount} chunks)`)
  }
  for (const problem of problems) write(`FAILED ${problem}`)
  const ready = [...state.values()].filter(({ document }) => document.status === 'ready').length
  write(`${ready} ready, ${problems.length} failed`)
  return problems.length > 0 ? 1 : 0
}

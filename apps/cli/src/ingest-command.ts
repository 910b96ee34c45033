import type { Writable } from 'node:stream'
import { DOCUMENT_STATUSES, isDocumentFinished } from '@rag/api-contract'
import type { ApiDocument, GatewayClient } from '@rag/gateway-client'
import { collectFiles } from '@rag/gateway-client'
import { MultiBar, Presets } from 'cli-progress'
import pLimit from 'p-limit'
import { missingOf } from './documents-command.ts'

/** A document's way to ready, in order (the contract's statuses but the failure). */
const STAGES = DOCUMENT_STATUSES.filter((status) => status !== 'failed')

export interface IngestCommandOptions {
  paths: string[]
  client: GatewayClient
  output: Writable & { isTTY?: boolean }
  collection?: string
  tags?: string[]
  /** Uploads at once (the gateway's rate limit is waited out, as its Retry-After says). */
  concurrency?: number
  /** Given the outcome instead of the summary lines (`--json`). */
  result?: (result: IngestResult) => void
}

export interface IngestResult {
  documents: {
    path: string
    id: string
    filename: string
    status: string
    chunkCount: number
    /** Pages it is searchable without (unreadable, past OCR_MAX_PAGES), and why. */
    missingPages: { page: number; reason: string }[]
    error: string | null
  }[]
  /** Files not sent (unsupported type, unreadable) and uploads the gateway refused. */
  refused: { path: string; reason: string }[]
  /** Files in the folders given that no parser reads (not failures). */
  ignored: { path: string; reason: string }[]
  ready: number
  failed: number
}

/**
 * `pnpm ingest PATH|URL...`: uploads every supported file (web pages are fetched by the gateway), shows each document moving through the
 * stages, and returns 0 when all are ready, 1 when any failed or was refused (with the reasons).
 */
export async function runIngestCommand({
  paths,
  client,
  output,
  collection,
  tags,
  concurrency = 4,
  result,
}: IngestCommandOptions): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  // http(s) addresses are web pages the gateway fetches; everything else is a local path.
  const urls = paths.filter((path) => /^https?:\/\//i.test(path))
  const { files, skipped, ignored } = await collectFiles(paths.filter((path) => !urls.includes(path)))
  if (!result) {
    for (const { path, reason } of skipped) write(`skipped ${path}: ${reason}`)
    if (ignored.length > 0)
      write(
        `left out ${ignored.length} file(s) of a type no parser reads: ${ignored.map(({ path }) => path).join(', ')}`,
      )
  }
  if (files.length === 0 && urls.length === 0) {
    if (result)
      result({
        documents: [],
        refused: skipped.map(({ path, reason }) => ({ path, reason })),
        ignored,
        ready: 0,
        failed: skipped.length,
      })
    else write('nothing to ingest')
    return 1
  }
  const refused = skipped.map(({ path, reason }) => ({ path, reason }))
  const uploaded: { path: string; document: ApiDocument; action?: string }[] = []
  const limit = pLimit(concurrency)
  const send = (path: string, upload: () => Promise<ApiDocument & { action?: string }>) =>
    limit(async () => {
      try {
        const document = await upload()
        uploaded.push({ path, document, action: document.action })
      } catch (error) {
        refused.push({ path, reason: error instanceof Error ? error.message : String(error) })
      }
    })
  await Promise.all([
    ...files.map(({ path, name }) => send(path, () => client.upload(path, { collection, tags, name }))),
    ...urls.map((url) => send(url, () => client.ingestUrl(url, { collection }))),
  ])

  const bars = output.isTTY
    ? new MultiBar(
        { format: ' {bar} {stage} {file}', hideCursor: true, stream: output as NodeJS.WriteStream },
        Presets.shades_grey,
      )
    : null
  const state = new Map(
    uploaded.map(({ path, document, action }) => [
      document.id,
      {
        path,
        document,
        unchanged: action === 'unchanged',
        bar: bars?.create(STAGES.length - 1, 0, { stage: document.status, file: path }),
      },
    ]),
  )
  await Promise.all(
    [...state.values()].map(async (entry) => {
      let told = ''
      entry.document = await client.waitForDocument(entry.document.id, {
        onPoll: (document) => {
          const { status, progress } = document
          // A stage it moves through, a line; where it ends is the summary's line (one a file).
          if (!bars && status !== told && !isDocumentFinished(status)) write(`${entry.path}: ${status}`)
          told = status
          entry.document = document
          const step =
            status === 'failed' ? 0 : STAGES.indexOf(status) + (status === 'storing' ? progress : 0)
          entry.bar?.update(Math.min(step, STAGES.length - 1), { stage: status, file: entry.path })
        },
      })
    }),
  )
  bars?.stop()

  const documents = [...state.values()].map(({ path, document, unchanged }) => ({
    path,
    unchanged,
    id: document.id,
    filename: document.filename,
    status: document.status,
    chunkCount: document.chunkCount,
    missingPages: document.missingPages,
    error: document.error ?? null,
  }))
  const ready = documents.filter((document) => document.status === 'ready').length
  const failed = documents.length - ready + refused.length
  if (result) result({ documents, refused, ignored, ready, failed })
  else {
    for (const document of documents)
      if (document.status === 'ready')
        write(
          `${document.unchanged ? 'unchanged' : 'ready'} ${document.path} (${plural(document.chunkCount, 'chunk')}${missingOf(document)})`,
        )
    for (const document of documents)
      if (document.status !== 'ready') write(`FAILED ${document.path}: ${document.error ?? 'failed'}`)
    for (const { path, reason } of refused) write(`FAILED ${path}: ${reason}`)
    write(`${ready} ready, ${failed} failed`)
  }
  return failed > 0 ? 1 : 0
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`

// The sandboxed side of parsing: a child process of the parse worker that parses one stored file
// at a time under the memory cap and deadline its parent enforces, so a file that makes the
// parser run away takes only this process down. Kept between files while it stays healthy.
import { readFile } from 'node:fs/promises'
import { parseDocument } from '../parse-document.ts'
import { DocumentParseError, type ParsedSection } from '../parsed-section.ts'
import { batchIsFull } from './part-batches.ts'
import type { ChildMessage, ParentMessage, ParseRequest } from './sandbox-protocol.ts'

// Under tsx, Node keeps the source map of every module it loads; the PDF library's would hold
// ~180 MB of this process's heap for stack traces nobody reads here.
process.setSourceMapsEnabled(false)

const send = (message: ChildMessage) =>
  new Promise<void>((resolve, reject) =>
    process.send?.(message, undefined, {}, (error) => (error ? reject(error) : resolve())),
  )

let wantMore: (() => void) | undefined
const more = () => new Promise<void>((resolve) => (wantMore = resolve))

async function run(request: ParseRequest) {
  const data = await readFile(request.path).catch((error: unknown) => {
    throw new DocumentParseError(
      `the stored file is missing (${error instanceof Error ? error.message : error})`,
    )
  })
  let batch: ParsedSection[] = []
  let chars = 0
  const flush = async () => {
    const waiting = more()
    await send({ type: 'sections', sections: batch })
    batch = []
    chars = 0
    await waiting
  }
  const options = { ...request.options, onProgress: () => void send({ type: 'progress' }) }
  for await (const section of parseDocument(data, request.filename, request.sourceType, options)) {
    batch.push(section)
    chars += section.units.reduce((sum, unit) => sum + unit.length, 0)
    if (batchIsFull(batch.length, chars, request.batchSize)) await flush()
  }
  if (batch.length > 0) await flush()
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'more') {
    wantMore?.()
    return
  }
  run(message.request).then(
    () => send({ type: 'done' }),
    (error: unknown) =>
      send({
        type: 'error',
        document: error instanceof DocumentParseError,
        message: error instanceof Error ? error.message : String(error),
      }),
  )
})
// The parse worker went away (killed, or closing): nothing is waiting for a result. The OCR
// helpers this process started go with it (its process group; this process is its leader).
process.on('disconnect', () => {
  try {
    process.kill(-process.pid, 'SIGKILL')
  } catch {
    process.exit(0)
  }
})

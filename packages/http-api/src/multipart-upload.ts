import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadableStream } from 'node:stream/web'
import { diskFullMessage, isDiskFull } from '@rag/ingest'
import busboy from 'busboy'
import { HttpError } from './http-error.ts'
import { controlCharacterError, controlCharacterField } from './middleware/input-guard.ts'

export interface SpooledFile {
  /** As the client named it. */
  filename: string
  /** Where it was spooled (under the upload folder: registering it moves it into place). */
  path: string
}

export interface MultipartUpload {
  files: SpooledFile[]
  fields: Record<string, string>
  /** Removes the spooled files. */
  cleanUp(): Promise<void>
}

const FILE_FIELDS = new Set(['file', 'files'])

/**
 * Reads a multipart upload as it arrives, spooling each file to disk and counting its bytes: a
 * file past `maxBytes` stops the read at that byte with 413 (nothing is held in memory but the
 * parser's buffers), and so does a file past `maxFiles`. Fields may come before or after the files
 * (curl sends them in the order given), so files are registered only once the whole body is read.
 */
export async function readMultipartUpload(
  body: ReadableStream<Uint8Array> | null,
  headers: Record<string, string>,
  { spoolDir, maxBytes, maxFiles }: { spoolDir: string; maxBytes: number; maxFiles: number },
): Promise<MultipartUpload> {
  if (!body) throw new HttpError(400, 'the upload has no body')
  const dir = join(spoolDir, randomUUID())
  await mkdir(dir, { recursive: true }).catch(async (error: unknown) => {
    throw isDiskFull(error) ? new HttpError(507, await diskFullMessage(spoolDir, 'the upload')) : error
  })
  const cleanUp = () => rm(dir, { recursive: true, force: true })
  const files: SpooledFile[] = []
  const fields: Record<string, string> = {}
  let parser: busboy.Busboy
  try {
    parser = busboy({
      headers,
      // The client's name as sent; registering the document sanitises it.
      preservePath: true,
      // Browsers and fetch send a file name's UTF-8 bytes as they are (RFC 7578): read as latin1
      // (busboy's default) 取扱説明書.pdf became mojibake.
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes, files: maxFiles, fields: 50, fieldSize: 64 * 1024, parts: maxFiles + 50 },
    })
  } catch (error) {
    await cleanUp()
    throw new HttpError(400, `malformed multipart body: ${error instanceof Error ? error.message : error}`)
  }
  const writes: Promise<void>[] = []
  const failed = new Promise<never>((_, reject) => {
    parser.on('file', (field, stream, info) => {
      if (!FILE_FIELDS.has(field)) {
        stream.resume()
        return
      }
      const path = join(dir, String(files.length))
      const filename = info.filename || `upload-${files.length + 1}`
      if (controlCharacterField(filename, 'filename')) {
        stream.resume()
        reject(controlCharacterError(`${field}.filename`))
        return
      }
      files.push({ filename, path })
      stream.on('limit', () =>
        reject(new HttpError(413, `${filename} is larger than ${maxBytes} bytes (UPLOAD_MAX_BYTES)`)),
      )
      const written = pipeline(stream, createWriteStream(path))
      // A write that fails (a full disk) ends the upload at once: left alone, the unread file
      // stream would stall the parser until the request timed out.
      written.catch(async (error: unknown) =>
        reject(
          isDiskFull(error)
            ? new HttpError(507, await diskFullMessage(spoolDir, filename))
            : new HttpError(500, `the upload could not be written: ${(error as Error).message}`),
        ),
      )
      writes.push(written)
    })
    parser.on('field', (name, value) => {
      const bad = controlCharacterField(name, 'field') ?? controlCharacterField(value, name)
      if (bad) reject(controlCharacterError(bad))
      fields[name] = value
    })
    parser.on('filesLimit', () =>
      reject(new HttpError(413, `more than ${maxFiles} files in one upload (UPLOAD_MAX_FILES)`)),
    )
    parser.on('error', (error: Error) =>
      reject(new HttpError(400, `malformed multipart body: ${error.message}`)),
    )
  })
  failed.catch(() => undefined)
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>)
  const read = pipeline(source, parser)
  // Stopped early (413), the read ends as a premature close: expected, not an error to report.
  read.catch(() => undefined)
  try {
    await Promise.race([read, failed])
    await Promise.race([Promise.all(writes), failed])
  } catch (error) {
    source.destroy()
    await cleanUp()
    if (error instanceof HttpError) throw error
    // A write that failed for want of space can be seen here before its own handler says 507.
    if (isDiskFull(error)) throw new HttpError(507, await diskFullMessage(spoolDir, 'the upload'))
    throw new HttpError(400, `malformed multipart body: ${error instanceof Error ? error.message : error}`)
  }
  return { files, fields, cleanUp }
}

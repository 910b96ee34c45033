import yauzl from 'yauzl'
import { DocumentParseError } from './parsed-section.ts'

/** The entries of a zip whose names pass `wanted`, inflated into memory (after checkUnzippedSize). */
export function readZipEntries(
  data: Uint8Array,
  kind: string,
  wanted: (name: string) => boolean,
): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error | null | undefined) =>
      reject(new DocumentParseError(`not a readable ${kind} file: ${error?.message ?? 'unknown'}`))
    yauzl.fromBuffer(
      Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      { lazyEntries: true },
      (error, zip) => {
        if (error || !zip) return fail(error)
        const entries = new Map<string, Buffer>()
        zip.on('entry', (entry: yauzl.Entry) => {
          if (!wanted(entry.fileName)) return zip.readEntry()
          zip.openReadStream(entry, (openError, stream) => {
            if (openError || !stream) return fail(openError)
            const parts: Buffer[] = []
            stream.on('data', (part: Buffer) => parts.push(part))
            stream.on('error', fail)
            stream.on('end', () => {
              entries.set(entry.fileName, Buffer.concat(parts))
              zip.readEntry()
            })
          })
        })
        zip.on('end', () => resolve(entries))
        zip.on('error', fail)
        zip.readEntry()
      },
    )
  })
}

import yauzl from 'yauzl'
import { DocumentParseError } from './parsed-section.ts'

/**
 * The total decompressed size a zip declares in its central directory, read without inflating
 * anything. A zip bomb declares its size honestly or lies; the sandbox's memory cap stops a liar.
 */
export function declaredUnzippedBytes(data: Uint8Array, kind: string): Promise<number> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      { lazyEntries: true },
      (error, zip) => {
        if (error || !zip) {
          reject(
            new DocumentParseError(
              `not a readable ${kind} file (not a zip archive: ${error?.message ?? 'unknown'})`,
            ),
          )
          return
        }
        let total = 0
        zip.on('entry', (entry: yauzl.Entry) => {
          total += entry.uncompressedSize
          zip.readEntry()
        })
        zip.on('end', () => resolve(total))
        zip.on('error', (zipError: Error) =>
          reject(new DocumentParseError(`not a readable ${kind} file: ${zipError.message}`)),
        )
        zip.readEntry()
      },
    )
  })
}

export async function checkUnzippedSize(data: Uint8Array, kind: string, maxBytes: number) {
  const total = await declaredUnzippedBytes(data, kind)
  if (total > maxBytes) {
    throw new DocumentParseError(
      `the ${kind} file unpacks to ${Math.round(total / 1048576)} MiB; at most ${Math.round(maxBytes / 1048576)} MiB are read (ZIP_MAX_UNPACKED_MB)`,
    )
  }
}

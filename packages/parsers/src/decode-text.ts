import { DocumentParseError } from './parsed-section.ts'

const UTF8_BOM = [0xef, 0xbb, 0xbf]

/**
 * Bytes to text: UTF-8 (with or without BOM), else Shift_JIS (what Excel in Japan writes).
 * Binary content (NUL bytes) is refused rather than decoded into noise.
 */
export function decodeText(data: Uint8Array, kind: string): string {
  if (data.length === 0) throw new DocumentParseError('the file is empty')
  const sample = data.subarray(0, 8192)
  if (sample.includes(0)) throw new DocumentParseError(`binary content, not ${kind} text`)
  const body = UTF8_BOM.every((byte, i) => data[i] === byte) ? data.subarray(3) : data
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    try {
      return new TextDecoder('shift_jis', { fatal: true }).decode(body)
    } catch {
      throw new DocumentParseError(`${kind} text is neither UTF-8 nor Shift_JIS`)
    }
  }
}

import iconv from 'iconv-lite'
import { DocumentParseError } from './parsed-section.ts'

const BOMS: { bytes: number[]; encoding: string }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
]

// Japanese offices write Shift_JIS (Excel), EUC-JP (older Unix tools) and ISO-2022-JP (mail).
const LEGACY_JAPANESE = ['shift_jis', 'euc-jp'] as const
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC $ B is how ISO-2022-JP switches to JIS
const ESCAPE_TO_JIS = /\x1b\$[@B]/

/** Share of bytes that no text file holds (NUL and other controls but tab, newlines, form feed, escape). */
function controlShare(sample: Uint8Array): number {
  let controls = 0
  for (const byte of sample) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b)
      controls += 1
  }
  return sample.length === 0 ? 0 : controls / sample.length
}

function highByteShare(data: Uint8Array): number {
  let high = 0
  for (const byte of data) if (byte >= 0x80) high += 1
  return high / data.length
}

function decodeStrict(data: Uint8Array, encoding: string): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(data)
  } catch {
    return null
  }
}

/** How Japanese a decoding reads: kana and common kanji count, half-width katakana and symbols do not. */
function japaneseScore(text: string): number {
  const good = text.match(/[\p{Script=Hiragana}\p{Script=Katakana}\u4e00-\u9fff\u3000-\u303f\s\w]/gu)
  return (good?.length ?? 0) / Math.max(1, text.length)
}

/**
 * Bytes to text. A byte-order mark decides (UTF-8, UTF-16LE/BE); else UTF-8 if it decodes, else
 * ISO-2022-JP when it has its escapes, else whichever of Shift_JIS and EUC-JP decodes into more
 * Japanese, else Windows-1252 for mostly-ASCII Western text. Binary content (a large share of control bytes) is refused rather than decoded into
 * noise; a stray NUL in a text file is not binary (it is dropped later with other invalid characters).
 */
export function decodeText(data: Uint8Array, kind: string): string {
  if (data.length === 0) throw new DocumentParseError('the file is empty')
  for (const { bytes, encoding } of BOMS) {
    if (bytes.every((byte, i) => data[i] === byte)) {
      const text = decodeStrict(data, encoding)
      if (text === null)
        throw new DocumentParseError(
          `${kind} text starts with a ${encoding} byte-order mark but is not ${encoding}`,
        )
      return text
    }
  }
  // Mostly control bytes is binary whatever it decodes as; a few (stray NULs in a text export)
  // are binary only when the rest is not text either.
  const controls = controlShare(data.subarray(0, 8192))
  if (controls > 0.3) throw new DocumentParseError(`binary content, not ${kind} text`)
  // ISO-2022-JP is 7-bit, so it would pass as UTF-8 with its escapes shown: look for them first.
  if (ESCAPE_TO_JIS.test(Buffer.from(data.subarray(0, 65536)).toString('latin1'))) {
    const jis = decodeStrict(data, 'iso-2022-jp')
    if (jis !== null) return jis
  }
  const utf8 = decodeStrict(data, 'utf-8')
  if (utf8 !== null) return utf8
  if (controls > 0.02) throw new DocumentParseError(`binary content, not ${kind} text`)
  const candidates = LEGACY_JAPANESE.map((encoding) => decodeStrict(data, encoding)).filter(
    (text): text is string => text !== null,
  )
  const best = candidates.sort((a, b) => japaneseScore(b) - japaneseScore(a))[0]
  if (best !== undefined && japaneseScore(best) >= 0.8) return best
  // Mostly ASCII with a few other bytes: Western text from older tools (Latin-1 / Windows-1252).
  // (iconv-lite: Node 20's own decoder maps 0x80–0x9F to control characters, not € “ ” …)
  if (highByteShare(data) < 0.3) return iconv.decode(Buffer.from(data), 'windows-1252')
  if (best !== undefined) return best
  throw new DocumentParseError(
    `${kind} text is in none of the encodings tried (UTF-8, UTF-16 with a byte-order mark, Shift_JIS, EUC-JP, ISO-2022-JP, Windows-1252)`,
  )
}

import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createDeflate } from 'node:zlib'
import iconv from 'iconv-lite'
import { pdfStream, rawPdf } from './raw-pdf.ts'

/** The CJK encodings a Japanese PDF's non-embedded font is commonly written in. */
export type JapaneseCMap = '90ms-RKSJ-H' | 'EUC-H' | 'UniJIS-UCS2-H' | 'UniJIS-UCS2-V'

function encodeFor(cmap: JapaneseCMap, text: string): Buffer {
  if (cmap === '90ms-RKSJ-H') return iconv.encode(text, 'shift_jis')
  if (cmap === 'EUC-H') return iconv.encode(text, 'euc-jp')
  return iconv.encode(text, 'utf-16be')
}

/**
 * A Japanese text PDF as office software and old typesetting tools write them: a Type0 font with
 * a predefined CMap and an Adobe-Japan1 CID font that is not embedded (the reader supplies it).
 * Each line is shown with its own text operator; `-V` CMaps set it vertically, right to left.
 */
export function japaneseCidPdf(lines: string[], cmap: JapaneseCMap): Buffer {
  const vertical = cmap.endsWith('-V')
  const shows = lines.map((line, i) => {
    const hex = encodeFor(cmap, line).toString('hex')
    const [x, y] = vertical ? [500 - i * 30, 780] : [60, 780 - i * 30]
    return `BT /F1 20 Tf 1 0 0 1 ${x} ${y} Tm <${hex}> Tj ET`
  })
  const content = Buffer.from(shows.join('\n'), 'latin1')
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    pdfStream('', content),
    `<< /Type /Font /Subtype /Type0 /BaseFont /MS-Mincho /Encoding /${cmap} /DescendantFonts [6 0 R] >>`,
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /MS-Mincho /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 4 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /MS-Mincho /Flags 6 /FontBBox [0 -141 1000 859] /ItalicAngle 0 /Ascent 859 /Descent -141 /CapHeight 709 /StemV 80 >>',
  ])
}

/** A PDF of `pages` pages sharing one small content stream (a 100k-page file is ~8 MB). */
export function manyPagesPdf(pages: number, text = 'page'): Buffer {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ')
  const page =
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 3 0 R >>'
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    pdfStream('', Buffer.from(`BT /F1 12 Tf 20 100 Td (${text}) Tj ET`, 'latin1')),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...Array.from({ length: pages }, () => page),
  ])
}

/**
 * A decompression bomb: a small page whose compressed content stream inflates to `inflatedMiB`
 * of text operators. Reading its text needs memory in proportion, so only a memory cap stops it.
 * Compressed as it is produced, so making it holds only the compressed bytes.
 */
export async function inflatingPdf(inflatedMiB = 256): Promise<Buffer> {
  // One string operand that long: the reader holds all of it, character by character, at once.
  const block = Buffer.alloc(1024 * 1024, 'a')
  async function* content() {
    yield Buffer.from('BT /F1 12 Tf 20 100 Td\n(', 'latin1')
    for (let i = 0; i < inflatedMiB; i++) yield block
    yield Buffer.from(') Tj ET', 'latin1')
  }
  const compressed: Buffer[] = []
  const deflate = createDeflate({ level: 9 })
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk))
  await pipeline(Readable.from(content()), deflate)
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    pdfStream('/Filter /FlateDecode', Buffer.concat(compressed)),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ])
}

/** HTML nested `depth` elements deep (parsers that recurse overflow their stack on it). */
export function deepHtml(depth: number): Buffer {
  return Buffer.from(`<html><body>${'<div>'.repeat(depth)}deep text${'</div>'.repeat(depth)}</body></html>`)
}

/** Readable text with NUL characters inside it, as some PDF text layers and exports hold. */
export function textWithNul(text: string): Buffer {
  return Buffer.from(text.split(' ').join('\u0000 '))
}

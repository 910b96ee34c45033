import { Document, HeadingLevel, Packer, Paragraph } from 'docx'
import iconv from 'iconv-lite'
import PDFDocument from 'pdfkit'
import { describe, expect, it } from 'vitest'
import yazl from 'yazl'
import { detectSourceType } from './detect-source-type.ts'
import { type ParseOptions, parseDocument } from './parse-document.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'
import { deepHtml, japaneseCidPdf, manyPagesPdf, textWithNul } from './testing/hostile-files.ts'

async function parse(data: Uint8Array, name: string, options: ParseOptions = {}): Promise<ParsedSection[]> {
  const type = detectSourceType(name)
  if (!type) throw new Error(`unsupported ${name}`)
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(data, name, type, options)) sections.push(section)
  return sections
}

async function failure(data: Uint8Array, name: string, options: ParseOptions = {}): Promise<string> {
  const error = await parse(data, name, options).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(DocumentParseError)
  return (error as Error).message
}

/** ISO-2022-JP as mail software writes it: JIS X 0208 between ESC $ B and ESC ( B (iconv-lite cannot). */
function iso2022jp(text: string): Buffer {
  const bytes: number[] = []
  let jis = false
  for (const char of text) {
    const ascii = char.charCodeAt(0) < 0x80
    if (ascii === jis) {
      bytes.push(...(ascii ? [0x1b, 0x28, 0x42] : [0x1b, 0x24, 0x42]))
      jis = !ascii
    }
    if (ascii) bytes.push(char.charCodeAt(0))
    else for (const byte of iconv.encode(char, 'euc-jp')) bytes.push(byte & 0x7f)
  }
  if (jis) bytes.push(0x1b, 0x28, 0x42)
  return Buffer.from(bytes)
}

const textOf = (sections: ParsedSection[]) => sections.flatMap((s) => s.units).join('\n')

function pdfkitPdf(options: PDFKit.PDFDocumentOptions, text: string): Promise<Buffer> {
  const doc = new PDFDocument(options)
  const chunks: Buffer[] = []
  doc.on('data', (chunk: Buffer) => chunks.push(chunk))
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))))
  doc.text(text)
  doc.end()
  return done
}

function zipOf(entries: Record<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(data, name)
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((resolve) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk))
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)))
  })
}

describe('Japanese PDFs whose fonts are not embedded', () => {
  const lines = ['保証期間は二年間です。', '修理は無料で行います。']
  it.each(['90ms-RKSJ-H', 'EUC-H', 'UniJIS-UCS2-H', 'UniJIS-UCS2-V'] as const)(
    '%s: read as the Japanese text, not mojibake and not "no text layer"',
    async (cmap) => {
      const sections = await parse(japaneseCidPdf(lines, cmap), 'jp.pdf')
      expect(sections.map((s) => s.sourceId)).toEqual(['jp.pdf:p1'])
      // The two lines of one paragraph read as one text (a line break inside it is layout).
      expect(textOf(sections)).toBe(lines.join(''))
    },
  )
})

describe('encrypted PDFs', () => {
  it('one that needs a password fails saying it is encrypted', async () => {
    const pdf = await pdfkitPdf(
      { userPassword: 'secret', ownerPassword: 'owner', pdfVersion: '1.7' },
      'hidden',
    )
    expect(await failure(pdf, 'locked.pdf')).toMatch(/encrypted with a password/)
  })
  it('one with an empty user password (restrictions only) is read', async () => {
    const pdf = await pdfkitPdf(
      { ownerPassword: 'owner', pdfVersion: '1.7', permissions: { copying: false } },
      'restricted but readable',
    )
    expect(textOf(await parse(pdf, 'restricted.pdf'))).toContain('restricted but readable')
  })
})

describe('Word files', () => {
  it('a DOCX of headings only is read as its headings, not failed as empty', async () => {
    const document = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: '製品マニュアル', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({ text: '第1章 はじめに', heading: HeadingLevel.HEADING_2 }),
          ],
        },
      ],
    })
    const sections = await parse(await Packer.toBuffer(document), 'outline.docx')
    expect(textOf(sections)).toBe('製品マニュアル\n第1章 はじめに')
  })
})

describe('text hygiene', () => {
  it('NUL characters are dropped from text, not a reason to refuse the file', async () => {
    const sections = await parse(textWithNul('the warranty lasts two years'), 'notes.txt')
    expect(textOf(sections)).toBe('the warranty lasts two years')
    const csv = await parse(Buffer.from('q,a\nwarranty\u0000,two years\n'), 'faq.csv')
    expect(textOf(csv)).toBe('q: warranty\na: two years')
  })
  it('binary content is still refused', async () => {
    const binary = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256))
    expect(await failure(binary, 'data.txt')).toMatch(/binary content/)
  })
})

describe('encodings Japanese offices write', () => {
  const csv = '質問,回答\n保証期間は？,二年間です\n'
  it.each([
    ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(csv, 'utf-16le')])],
    ['UTF-16BE with BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(csv, 'utf-16be')])],
    ['EUC-JP', iconv.encode(csv, 'euc-jp')],
    ['Shift_JIS', iconv.encode(csv, 'shift_jis')],
    ['ISO-2022-JP', iso2022jp(csv)],
  ])('%s CSV reads as the text', async (_name, data) => {
    expect(textOf(await parse(data, 'faq.csv'))).toBe('質問: 保証期間は？\n回答: 二年間です')
  })
  it('Western text from older tools (Latin-1 / Windows-1252) reads as the text', async () => {
    const latin1 = Buffer.from('Café menu: crème brûlée, 5 €', 'latin1')
    latin1[latin1.length - 1] = 0x80 // the euro sign in Windows-1252
    expect(textOf(await parse(latin1, 'menu.txt'))).toBe('Café menu: crème brûlée, 5 €')
  })
})

describe('limits', () => {
  it('HTML nested 100,000 deep fails at once (no recursion, no quadratic walk)', async () => {
    // Measured to its full depth, so the walk reached the bottom without recursing (a recursive
    // walk overflows the stack long before 100,000).
    expect(await failure(deepHtml(100_000), 'deep.html')).toMatch(/nests elements 100002 deep; at most 512/)
    // Ordinary nesting, and lists whose items are never closed, are read.
    expect(textOf(await parse(deepHtml(200), 'ok.html'))).toBe('deep text')
    const sloppy = `<ul>${'<li>item'.repeat(2000)}</ul>`
    expect(textOf(await parse(Buffer.from(sloppy), 'list.html'))).toContain('item')
  })
  it('a 100,000-page PDF is refused before reading its pages', async () => {
    expect(await failure(manyPagesPdf(100_000), 'huge.pdf')).toMatch(/100000 pages; at most 2000/)
  })
  it('CSV rows and columns', async () => {
    const wide = `${Array.from({ length: 20 }, (_, i) => `c${i}`).join(',')}\n${'x,'.repeat(19)}x\n`
    expect(await failure(Buffer.from(wide), 'wide.csv', { limits: { maxCsvColumns: 10 } })).toMatch(
      /20 columns; at most 10/,
    )
    const long = `a\n${'x\n'.repeat(30)}`
    expect(await failure(Buffer.from(long), 'long.csv', { limits: { maxCsvRows: 20 } })).toMatch(
      /more than 20 data rows/,
    )
  })
  it('a DOCX that would unpack past the limit is refused before inflating', async () => {
    const bomb = await zipOf({ 'word/document.xml': Buffer.alloc(64 * 1024 * 1024) })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    expect(await failure(bomb, 'bomb.docx', { limits: { maxUnzippedBytes: 16 * 1024 * 1024 } })).toMatch(
      /unpacks to 64 MiB; at most 16 MiB/,
    )
  })
})

import PDFDocument from 'pdfkit'
import { JAPANESE_FONT } from './japanese-font.ts'

/** The price table the laid-out sample carries: rows under their column names. */
export const PRICE_TABLE = {
  caption: '料金プラン一覧',
  header: ['プラン', '月額料金', 'ストレージ', 'サポート'],
  rows: [
    ['ベーシック', '3,000円', '50GB', 'メール'],
    ['スタンダード', '12,000円', '200GB', 'メール・チャット'],
    ['エンタープライズ', '48,000円', '2TB', '電話・専任担当'],
  ],
}

/** The vertical page's text, column by column (right to left). */
export const VERTICAL_COLUMNS = [
  '吾輩は猫である。名前はまだ無い。',
  'どこで生れたかとんと見当がつかぬ。',
  '何でも薄暗い所で泣いていた。',
]

/**
 * A born-digital PDF laid out as company documents are: page 1 a chapter heading, a paragraph and
 * a ruled price table (drawn lines, the whole row drawn in content-stream order) under its caption,
 * with a running header and a page number; page 2 text set vertically, glyph by glyph, columns
 * right to left, as a browser prints `writing-mode: vertical-rl`, with the same header and number.
 */
export async function laidOutPdf(): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false })
  const out: Buffer[] = []
  doc.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve) => doc.on('end', resolve))
  doc.registerFont('jp', JAPANESE_FONT)
  const furniture = (page: number) => {
    doc.font('jp').fontSize(9).text('株式会社ルミナ 料金のご案内', 50, 30, { lineBreak: false })
    doc.font('jp').fontSize(9).text(`- ${page} -`, 290, 805, { lineBreak: false })
  }

  doc.addPage()
  furniture(1)
  doc.font('jp').fontSize(20).text('第2章 料金', 50, 80, { lineBreak: false })
  doc
    .font('jp')
    .fontSize(11)
    .text('各プランの月額料金とストレージは次のとおりです。料金は税抜きです。', 50, 120, { lineBreak: false })
  doc.font('jp').fontSize(14).text(PRICE_TABLE.caption, 50, 160, { lineBreak: false })
  const xs = [50, 170, 270, 370, 520]
  const rows = [PRICE_TABLE.header, ...PRICE_TABLE.rows]
  const ys = rows.map((_, r) => 185 + r * 24)
  ys.push(185 + rows.length * 24)
  doc.lineWidth(0.8)
  for (const y of ys)
    doc
      .moveTo(xs[0] as number, y)
      .lineTo(xs.at(-1) as number, y)
      .stroke()
  for (const x of xs)
    doc
      .moveTo(x, ys[0] as number)
      .lineTo(x, ys.at(-1) as number)
      .stroke()
  for (const [r, row] of rows.entries())
    for (const [c, text] of row.entries())
      doc
        .font('jp')
        .fontSize(10)
        .text(text, (xs[c] as number) + 5, (ys[r] as number) + 7, { lineBreak: false })

  // A notice set letter-spaced (some PDFs give such a line a space between every character).
  doc.font('jp').fontSize(11).text(LETTER_SPACED_NOTICE, 50, 700, { lineBreak: false, characterSpacing: 4 })

  doc.addPage()
  furniture(2)
  verticalColumns(doc, VERTICAL_COLUMNS)
  doc.end()
  await done
  return Buffer.concat(out)
}

/** The letter-spaced line of page 1, as written. */
export const LETTER_SPACED_NOTICE = 'ご予約はお電話で承ります。受付は午前11時からです。'

/** Columns of text set vertically glyph by glyph, the first at the right (as a browser prints 縦書き). */
function verticalColumns(doc: PDFKit.PDFDocument, columns: string[], size = 14) {
  for (const [i, column] of columns.entries())
    for (const [k, char] of [...column].entries())
      doc
        .font('jp')
        .fontSize(size)
        .text(char, 480 - i * (size + 10), 100 + k * size, { lineBreak: false })
}

/** A page of vertical text only (for a scan of it: what OCR's vertical model must read). */
export async function verticalTextPdf(columns: string[], size = 18): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 0 })
  const out: Buffer[] = []
  doc.on('data', (chunk: Buffer) => out.push(chunk))
  const done = new Promise((resolve) => doc.on('end', resolve))
  doc.registerFont('jp', JAPANESE_FONT)
  verticalColumns(doc, columns, size)
  doc.end()
  await done
  return Buffer.concat(out)
}

import { createWriteStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { Document, HeadingLevel, Packer, Paragraph } from 'docx'
import PDFDocument from 'pdfkit'
import { DOCX_SECTIONS, PDF_PAGES } from './sample-content.ts'

// Regenerates the binary samples in data/sample (committed; run again only when their content changes).
// Needs a Japanese font: `apt-get install fonts-ipafont-gothic`, or pass its path as the first argument.
const font = process.argv[2] ?? '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf'
const out = new URL('../../../data/sample/', import.meta.url)

async function writePdf() {
  const doc = new PDFDocument({ autoFirstPage: false, info: { Title: 'ルミナ L-200 取扱説明書' } })
  const done = new Promise<void>((resolve) =>
    doc.pipe(createWriteStream(new URL('lumina-guide.pdf', out))).on('finish', resolve),
  )
  doc.registerFont('jp', font)
  for (const page of PDF_PAGES) {
    doc.addPage({ size: 'A4', margin: 60 })
    doc.font('jp').fontSize(18).text(page.title)
    doc.moveDown()
    for (const paragraph of page.paragraphs) doc.fontSize(11).text(paragraph, { lineGap: 4 }).moveDown(0.5)
  }
  doc.end()
  await done
}

async function writeDocx() {
  const levels = { 1: HeadingLevel.HEADING_1, 2: HeadingLevel.HEADING_2, 3: HeadingLevel.HEADING_3 } as const
  const doc = new Document({
    sections: [
      {
        children: DOCX_SECTIONS.flatMap((section) => [
          new Paragraph({ text: section.heading, heading: levels[section.level] }),
          new Paragraph({ text: section.text }),
        ]),
      },
    ],
  })
  await writeFile(new URL('release-notes.docx', out), await Packer.toBuffer(doc))
}

await writePdf()
await writeDocx()

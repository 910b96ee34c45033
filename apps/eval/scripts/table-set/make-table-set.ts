import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { parseDocument, type SourceType, slugify } from '@rag/parsers'
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from 'docx'
import { chromium } from 'playwright-core'
import PptxGenJS from 'pptxgenjs'
import { DOCUMENTS, type SetDocument, type SetTable } from './tables.ts'

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

function htmlTable(table: SetTable, { ruled = true } = {}): string {
  const style = ruled ? ' class="ruled"' : ''
  const caption = table.caption ? `<caption>${escapeHtml(table.caption)}</caption>` : ''
  const head = `<thead><tr>${table.header.map((cell) => `<th>${escapeHtml(cell)}</th>`).join('')}</tr></thead>`
  const body = table.rows
    .map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`)
    .join('')
  return `<table${style}>${caption}${head}<tbody>${body}</tbody></table>`
}

function htmlOf(document: SetDocument, { forPrint }: { forPrint: boolean }): string {
  const css = `body{font-family:'IPAPGothic',sans-serif;font-size:11pt;margin:0}
table{border-collapse:collapse;margin:12pt 0}th,td{padding:4pt 14pt;text-align:left}
table.ruled th,table.ruled td{border:0.8pt solid #444}caption{text-align:left;font-weight:bold;padding:4pt 0}
section.page{break-before:page}h1{font-size:20pt}h2{font-size:15pt}`
  const sections = document.sections
    .map(
      (section) =>
        `<section${section.page ? ' class="page"' : ''}><h2>${escapeHtml(section.heading)}</h2>${section.text ? `<p>${escapeHtml(section.text)}</p>` : ''}${section.tables
          .map((table) => htmlTable(table, { ruled: !forPrint || table.ruled === true }))
          .join('')}</section>`,
    )
    .join('')
  return `<!doctype html><html lang="${document.language}"><head><meta charset="utf-8"><title>${escapeHtml(document.title)}</title><style>${css}</style></head><body><h1>${escapeHtml(document.title)}</h1>${sections}</body></html>`
}

async function pdfOf(document: SetDocument, chromiumPath: string): Promise<Buffer> {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox'],
  })
  try {
    const page = await browser.newPage()
    await page.setContent(htmlOf(document, { forPrint: true }))
    // A running header (the title) and footer (the page number) on every page, as printed documents carry.
    return await page.pdf({
      format: 'A4',
      margin: { top: '60px', bottom: '60px', left: '50px', right: '50px' },
      displayHeaderFooter: true,
      headerTemplate: `<div style="font-size:8pt;width:100%;text-align:center">${escapeHtml(document.title)}</div>`,
      footerTemplate:
        '<div style="font-size:8pt;width:100%;text-align:center">- <span class="pageNumber"></span> -</div>',
    })
  } finally {
    await browser.close()
  }
}

async function docxOf(document: SetDocument): Promise<Buffer> {
  const children: (Paragraph | Table)[] = [
    new Paragraph({ text: document.title, heading: HeadingLevel.TITLE }),
  ]
  for (const section of document.sections) {
    children.push(new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_2 }))
    if (section.text) children.push(new Paragraph(section.text))
    for (const table of section.tables) {
      if (table.caption)
        children.push(new Paragraph({ text: table.caption, heading: HeadingLevel.HEADING_3 }))
      const row = (cells: string[]) =>
        new TableRow({ children: cells.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) })
      children.push(new Table({ rows: [row(table.header), ...table.rows.map(row)] }))
    }
  }
  return Packer.toBuffer(new Document({ sections: [{ children }] }))
}

async function pptxOf(document: SetDocument): Promise<Buffer> {
  // The package's types describe a CommonJS default export; at run time the import is the class.
  const deck = new (PptxGenJS as unknown as typeof PptxGenJS.default)()
  for (const section of document.sections)
    for (const table of section.tables) {
      const slide = deck.addSlide()
      slide.addText(section.heading, { x: 0.5, y: 0.3, w: 9, h: 0.8, fontSize: 28 })
      slide.addTable(
        [table.header, ...table.rows].map((cells) => cells.map((text) => ({ text }))),
        { x: 0.5, y: 1.4, w: 9 },
      )
    }
  return (await deck.write({ outputType: 'nodebuffer' })) as Buffer
}

/** The source each row is cited as, by how each format names a table's rows. */
function rowSources(document: SetDocument): { table: SetTable; row: number; sourceId: string }[] {
  const out: { table: SetTable; row: number; sourceId: string }[] = []
  let page = 1
  let slide = 0
  for (const section of document.sections) {
    if (section.page) page += 1
    section.tables.forEach((table, t) => {
      slide += 1
      table.rows.forEach((_, r) => {
        const base = document.file.endsWith('.pdf')
          ? `${document.file}:p${page}`
          : document.file.endsWith('.pptx')
            ? `${document.file}:s${slide}`
            : `${document.file}#${slugify(section.heading)}`
        out.push({ table, row: r, sourceId: `${base}:t${t + 1}:r${r + 1}` })
      })
    })
  }
  return out
}

/**
 * Writes the table-questions set: the documents (PDFs printed by Chromium from HTML, ruled and
 * unruled, with a running header and page numbers; DOCX; PPTX; HTML) under OUT/docs and a question
 * per row and column in OUT/questions.json, each expecting that row's source and its cell. Then
 * reads the documents back and says which expected sources no section carries (the format's row
 * naming, not the reader, decides the ids: a missing one is a reader's miss, to be reported).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'data/eval/tables' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
    },
  })
  const out = values.out as string
  await rm(join(out, 'docs'), { recursive: true, force: true })
  await mkdir(join(out, 'docs'), { recursive: true })
  const questions: {
    query: string
    expected_source: string
    expected_keywords: string[]
    subtype: string
  }[] = []
  const missing: string[] = []
  for (const document of DOCUMENTS) {
    const kind = document.file.split('.').at(-1) as string
    const data =
      kind === 'pdf'
        ? await pdfOf(document, values.chromium as string)
        : kind === 'docx'
          ? await docxOf(document)
          : kind === 'pptx'
            ? await pptxOf(document)
            : Buffer.from(htmlOf(document, { forPrint: false }))
    await writeFile(join(out, 'docs', document.file), data)
    const sources = rowSources(document)
    for (const { table, row, sourceId } of sources) {
      const cells = table.rows[row] as string[]
      table.asks.forEach((ask, c) => {
        questions.push({
          query: ask.replace('{row}', cells[0] as string),
          expected_source: sourceId,
          expected_keywords: [cells[c + 1] as string],
          subtype: `${kind}-${document.language}`,
        })
      })
    }
    const read = new Set<string>()
    for await (const section of parseDocument(new Uint8Array(data), document.file, kind as SourceType, {
      ocr: { mode: 'off', languages: 'eng' },
    }))
      read.add(section.sourceId)
    missing.push(...sources.map((s) => s.sourceId).filter((id) => !read.has(id)))
  }
  await writeFile(join(out, 'questions.json'), `${JSON.stringify(questions, null, 1)}\n`)
  process.stdout.write(`${questions.length} questions over ${DOCUMENTS.length} documents in ${out}\n`)
  if (missing.length > 0)
    process.stdout.write(`rows no section is cited as (${missing.length}): ${missing.join(', ')}\n`)
}

await main()

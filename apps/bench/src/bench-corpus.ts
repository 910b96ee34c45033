import { createWriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import PDFDocument from 'pdfkit'

const WORDS =
  'lamp battery warranty brightness colour temperature charge cable firmware timer bluetooth pairing schedule store access shipping return policy support manual safety'.split(
    ' ',
  )

/** Deterministic prose: paragraphs of sentences made of a fixed vocabulary. */
export function paragraph(seed: number, sentences = 8): string {
  const out: string[] = []
  for (let s = 0; s < sentences; s++) {
    const words = Array.from({ length: 12 }, (_, w) => WORDS[(seed * 31 + s * 7 + w * 13) % WORDS.length])
    out.push(`Item ${seed}-${s}: ${words.join(' ')}.`)
  }
  return out.join(' ')
}

/** N text documents of four paragraphs (about 3 kB) each. */
export async function writeTextCorpus(dir: string, count: number): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const paths: string[] = []
  for (let n = 0; n < count; n++) {
    const path = join(dir, `doc-${String(n).padStart(5, '0')}.txt`)
    await writeFile(path, [0, 1, 2, 3].map((p) => paragraph(n * 4 + p)).join('\n\n'))
    paths.push(path)
  }
  return paths
}

/** A PDF with one paragraph per page, in a built-in font (no font file needed). */
export async function writeLargePdf(path: string, pages: number): Promise<void> {
  const doc = new PDFDocument({ autoFirstPage: false })
  const done = new Promise<void>((resolve) => doc.pipe(createWriteStream(path)).on('finish', resolve))
  for (let page = 0; page < pages; page++) {
    doc.addPage({ size: 'A4', margin: 50 })
    doc.fontSize(11).text(`Page ${page + 1}. ${paragraph(page, 10)}`)
  }
  doc.end()
  await done
}

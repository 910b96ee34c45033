import { describe, expect, it } from 'vitest'
import { parsePdf } from './parse-pdf.ts'
import type { ParsedSection } from './parsed-section.ts'
import { pdfStream, rawPdf } from './testing/raw-pdf.ts'

/** One page with `items` text items (each its own text object) and `lines` drawn lines. */
function crowdedPage(items: number, lines: number): Buffer {
  const content: string[] = []
  for (let i = 0; i < items; i++) {
    content.push(`BT /F1 4 Tf ${(i % 140) * 4 + 10} ${(800 - i * 0.0079).toFixed(4)} Td (w${i}) Tj ET`)
  }
  for (let i = 0; i < lines; i++)
    content.push(`${i % 500} ${(i * 7) % 800} m ${(i % 500) + 3} ${(i * 7) % 800} l`)
  content.push('S')
  return rawPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    pdfStream('', Buffer.from(content.join('\n'))),
  ])
}

describe('a page past what layout reads', () => {
  it('reads the first 100,000 text items and 50,000 lines, and says what it left out', async () => {
    const sections: ParsedSection[] = []
    for await (const section of parsePdf(crowdedPage(100_500, 50_500), 'crowded.pdf')) sections.push(section)
    const text = sections.flatMap((section) => section.units).join('\n')
    expect(text).toContain('w0')
    expect(text).not.toContain('w100400')
    expect(sections.filter((section) => section.leftOut).map((section) => section.leftOut)).toEqual([
      {
        page: 1,
        reason:
          'read in part: only the first 50000 drawn lines of a page are looked at for tables; only its first 100000 text items are laid out',
      },
    ])
  }, 300_000)
})

import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

// The PDF library's character maps (CJK encodings such as 90ms-RKSJ-H, UniJIS-UCS2-V) and the
// standard 14 fonts' data ship in its package. Without them a PDF whose Japanese font is not
// embedded yields no text or mojibake. Read from the installed package: nothing is fetched.
const pdfjsRoot = dirname(createRequire(import.meta.resolve('pdf-parse')).resolve('pdfjs-dist/package.json'))

export const PDF_LIBRARY_DATA = {
  cMapUrl: `${join(pdfjsRoot, 'cmaps')}/`,
  cMapPacked: true,
  standardFontDataUrl: `${join(pdfjsRoot, 'standard_fonts')}/`,
} as const

import { writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import { DEFAULT_OCR, type OcrOptions, ocrImageFile, tidyOcrText, withScratch } from './ocr.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

/**
 * A picture of text (a scan, a photo, a screenshot: PNG, JPEG, TIFF) read by OCR: one section per
 * page (`scan.tiff:p2`; one page for PNG and JPEG), marked as OCR'd.
 */
export async function* parseImage(
  data: Uint8Array,
  filename: string,
  ocr: OcrOptions = DEFAULT_OCR,
): AsyncGenerator<ParsedSection> {
  if (ocr.mode === 'off')
    throw new DocumentParseError('an image is read by OCR, and OCR is off (OCR=off): set OCR=auto to read it')
  const text = await withScratch(async (dir) => {
    const path = join(dir, `image${extname(filename).toLowerCase()}`)
    await writeFile(path, data)
    return ocrImageFile(path, ocr, `the image ${filename}`)
  })
  const pages = text.split('\f').map(tidyOcrText)
  if (!pages.some(Boolean))
    throw new DocumentParseError('OCR found no text in the image (a photo or drawing without writing?)')
  for (const [index, page] of pages.entries())
    if (page) yield { sourceId: `${filename}:p${index + 1}`, heading: null, units: [page], ocr: true }
}

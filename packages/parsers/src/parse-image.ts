import { extname } from 'node:path'
import { DEFAULT_OCR, type OcrOptions, ocrImagePages, tidyOcrText } from './ocr.ts'
import { DocumentParseError, type ParsedSection } from './parsed-section.ts'

/**
 * A picture of text (a scan, a photo, a screenshot: PNG, JPEG, TIFF) read by OCR: one section per
 * page (`scan.tiff:p2`; one page for PNG and JPEG), marked as OCR'd.
 */
export async function* parseImage(
  data: Uint8Array,
  filename: string,
  ocr: OcrOptions = DEFAULT_OCR,
  /** Told after each page is read (a page of a multi-page TIFF starts the deadline again). */
  onPage?: () => void,
): AsyncGenerator<ParsedSection> {
  if (ocr.mode === 'off')
    throw new DocumentParseError('an image is read by OCR, and OCR is off (OCR=off): set OCR=auto to read it')
  const readings = await ocrImagePages(
    data,
    extname(filename).toLowerCase(),
    ocr,
    `the image ${filename}`,
    onPage,
  )
  // A page's text may still hold form feeds (tesseract ends a page with one).
  const pages = readings.map((reading) => tidyOcrText(reading.text.replaceAll('\f', '\n')))
  if (!pages.some(Boolean))
    throw new DocumentParseError('OCR found no text in the image (a photo or drawing without writing?)')
  for (const [index, page] of pages.entries()) {
    const { confidence, direction } = readings[index] ?? { confidence: 0, direction: 'horizontal' }
    if (page)
      yield {
        sourceId: `${filename}:p${index + 1}`,
        heading: null,
        units: [page],
        ocr: true,
        ocrReading: { page: index + 1, confidence, direction },
      }
  }
}

import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { PDF_LIBRARY_DATA } from '../pdf-library-data.ts'

// Layout never looks at images (a scanned page is rendered for OCR by pdftoppm): pdf.js leaves
// out every image larger than one pixel instead of decoding it while it lists a page's drawing
// operators — half the time of a page with figures, and no JBIG2 or JPEG bomb decoded.
const NO_IMAGES = 1

/**
 * A PDF opened for layout, as every reader here opens it: no images decoded, no fonts loaded or
 * code evaluated, no console noise. An encrypted PDF with an empty user password (print/copy
 * restrictions only) opens as is. The caller destroys the task.
 */
export const openPdfForLayout = (data: Uint8Array) =>
  getDocument({
    data: new Uint8Array(data),
    ...PDF_LIBRARY_DATA,
    maxImageSize: NO_IMAGES,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  })

export {
  deepHtml,
  inflatingPdf,
  type JapaneseCMap,
  japaneseCidPdf,
  manyPagesPdf,
  textWithNul,
} from './hostile-files.ts'
export {
  JAPANESE_FONT,
  japanesePageImage,
  scannedJapanesePdf,
  threeSlideDeck,
  workbookWithMergedHeaders,
} from './office-samples.ts'
export { pdfStream, rawPdf } from './raw-pdf.ts'
export { bookPageWords, scannedBook } from './scanned-book.ts'

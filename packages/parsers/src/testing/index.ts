export {
  deepHtml,
  inflatingPdf,
  type JapaneseCMap,
  japaneseCidPdf,
  manyPagesPdf,
  textWithNul,
} from './hostile-files.ts'
export {
  LETTER_SPACED_NOTICE,
  laidOutPdf,
  PRICE_TABLE,
  VERTICAL_COLUMNS,
  verticalTextPdf,
} from './laid-out-pdf.ts'
export {
  JAPANESE_FONT,
  japanesePageImage,
  scannedCopy,
  scannedJapanesePdf,
  workbookWithMergedHeaders,
} from './office-samples.ts'
export { pdfStream, rawPdf } from './raw-pdf.ts'
export { bookPageWords, scannedBook } from './scanned-book.ts'
export { threeSlideDeck } from './slide-deck.ts'

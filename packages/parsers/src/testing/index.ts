export {
  deepHtml,
  inflatingPdf,
  type JapaneseCMap,
  japaneseCidPdf,
  manyPagesPdf,
  textWithNul,
} from './hostile-files.ts'
export { pdfStream, rawPdf } from './raw-pdf.ts'

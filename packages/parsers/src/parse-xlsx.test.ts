import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { parseDocument } from './parse-document.ts'
import { parseXlsx } from './parse-xlsx.ts'

describe('Excel workbooks read as a stream', () => {
  it('gives the rows before a broken place in a sheet before failing there: rows are read as they come', async () => {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('ログ')
    sheet.addRow(['日付', '内容'])
    for (let r = 1; r <= 1000; r++) sheet.addRow([`1月${r}日`, `作業 ${r}`])
    const zip = await JSZip.loadAsync((await book.xlsx.writeBuffer()) as ArrayBuffer)
    const path = 'xl/worksheets/sheet1.xml'
    const xml = (await zip.file(path)?.async('string')) ?? ''
    zip.file(path, xml.replace('</sheetData>', '<row r="1002"><c r="A1002"><v>1</v></c></row><<</sheetData>'))
    const rows: string[] = []
    const reading = (async () => {
      for await (const section of parseDocument(
        await zip.generateAsync({ type: 'uint8array' }),
        'log.xlsx',
        'xlsx',
      ))
        rows.push(section.sourceId)
    })()
    await expect(reading).rejects.toThrow(/not a readable Excel workbook/)
    expect(rows.slice(0, 2)).toEqual(['log.xlsx:ログ!r2', 'log.xlsx:ログ!r3'])
    // Read in pieces: the rows of the pieces before the broken one came out first (a whole-file read gives none).
    expect(rows.length).toBeGreaterThan(100)
  })

  it('stops at the row limit, saying so', async () => {
    const book = new ExcelJS.Workbook()
    const sheet = book.addWorksheet('ログ')
    sheet.addRow(['日付', '内容'])
    for (let r = 1; r <= 300; r++) sheet.addRow([`1月${r}日`, `作業 ${r}`])
    const data = new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer)
    const reading = async () => {
      for await (const _ of parseXlsx(data, 'log.xlsx', {
        maxUnzippedBytes: 1 << 30,
        maxCsvRows: 200,
        maxCsvColumns: 10,
      }));
    }
    await expect(reading()).rejects.toThrow(
      'the workbook has more than 200 data rows (CSV_MAX_ROWS): split it',
    )
  })
})

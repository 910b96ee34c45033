import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { parseDocument } from './parse-document.ts'
import { mergeSweep, parseRange, takeOutMerges } from './xlsx-merges.ts'

/**
 * A sheet whose every data row has B merged over C, the ranges written into the sheet's XML as
 * Excel writes them (ExcelJS's own mergeCells checks each against all before it: too slow to make 20,000).
 */
async function mergedBook(rows: number): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('売上')
  sheet.addRow(['店舗', '備考', ''])
  for (let r = 0; r < rows; r++) sheet.addRow([`店舗${r}`, `備考${r}`, ''])
  const zip = await JSZip.loadAsync((await book.xlsx.writeBuffer()) as ArrayBuffer)
  const path = 'xl/worksheets/sheet1.xml'
  const ranges = Array.from({ length: rows }, (_, r) => `<mergeCell ref="B${r + 2}:C${r + 2}"/>`).join('')
  const xml = (await zip.file(path)?.async('string')) ?? ''
  zip.file(
    path,
    xml.replace('</sheetData>', `</sheetData><mergeCells count="${rows}">${ranges}</mergeCells>`),
  )
  return zip.generateAsync({ type: 'uint8array' })
}

describe('merged ranges of a workbook', () => {
  it('reads cell references as ranges', () => {
    expect(parseRange('B2:C4')).toEqual({ top: 2, bottom: 4, left: 2, right: 3 })
    expect(parseRange('$AA$10')).toEqual({ top: 10, bottom: 10, left: 27, right: 27 })
    expect(parseRange('nonsense')).toBeNull()
  })

  it('tells, row by row, which range a merged cell shows the master of', () => {
    const tall = { top: 2, bottom: 4, left: 1, right: 1 }
    const wide = { top: 3, bottom: 3, left: 2, right: 3 }
    const sweep = mergeSweep([tall, wide])
    expect(sweep.lastRow).toBe(4)
    sweep.moveTo(2)
    expect([sweep.starting(), sweep.coveringOf(1), sweep.coveredFromAbove()]).toEqual([[tall], null, false])
    sweep.moveTo(3)
    expect(sweep.starting()).toEqual([wide])
    expect([sweep.coveringOf(1), sweep.coveringOf(2), sweep.coveringOf(3)]).toEqual([tall, null, wide])
    expect(sweep.coveredFromAbove()).toBe(true)
    sweep.moveTo(5)
    expect([sweep.coveringOf(1), sweep.coveredFromAbove()]).toEqual([null, false])
    expect(() => sweep.moveTo(4)).toThrow(/row order/)
  })

  it('hands ExcelJS a workbook without merged ranges (it checks each against all before it), and keeps them', async () => {
    const { data, merges } = await takeOutMerges(await mergedBook(50))
    expect(merges.get('売上')).toHaveLength(50)
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('売上')
    if (!sheet) throw new Error('the sheet is gone')
    expect((sheet.model as { merges?: string[] }).merges ?? []).toEqual([])
  })

  it('reads 20,000 merged ranges, every merged cell showing its master value', async () => {
    const rows: string[] = []
    for await (const section of parseDocument(await mergedBook(20_000), 'book.xlsx', 'xlsx'))
      rows.push(section.units[0] ?? '')
    expect(rows).toHaveLength(20_000)
    expect(rows[19_999]).toBe('店舗: 店舗19999\n備考: 備考19999\ncolumn 3: 備考19999')
  })
})

import { describe, expect, it } from 'vitest'
import { sheetRowOf, tableRowOf } from './table-row.ts'

describe('a cited table row', () => {
  it('is shown as its caption and cells, each under its column name', () => {
    expect(
      tableRowOf(
        'price.pdf:p3:t1:r4',
        '料金プラン一覧 — プラン: エンタープライズ / 月額料金: 48,000円 / ストレージ: 2TB',
      ),
    ).toEqual({
      caption: '料金プラン一覧',
      cells: [
        { column: 'プラン', value: 'エンタープライズ' },
        { column: '月額料金', value: '48,000円' },
        { column: 'ストレージ', value: '2TB' },
      ],
    })
    expect(tableRowOf('deck.pptx:s2:t1:r1', '重さ / 値: 1.2 kg')?.cells[0]).toEqual({
      column: '',
      value: '重さ',
    })
  })

  it('is not a table row for any other source', () => {
    expect(tableRowOf('guide.pdf:p3', 'プラン: エンタープライズ')).toBeNull()
    expect(tableRowOf('faq.csv:r2', '質問: x')).toBeNull()
  })
})

describe('sheetRowOf', () => {
  it('reads a CSV or spreadsheet row back as cells, and nothing else', () => {
    expect(sheetRowOf('stock.csv:r3', '品名: プロジェクター EP-100\n保管場所: 2階会議室B')).toEqual({
      caption: null,
      cells: [
        { column: '品名', value: 'プロジェクター EP-100' },
        { column: '保管場所', value: '2階会議室B' },
      ],
    })
    expect(sheetRowOf('book.xlsx:在庫!r4', '数量: 3')?.cells).toEqual([{ column: '数量', value: '3' }])
    expect(sheetRowOf('guide.pdf:p3', '数量: 3')).toBeNull()
    expect(sheetRowOf('notes.csv:r2', 'free text without a column')).toBeNull()
  })
})

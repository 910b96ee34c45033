import { describe, expect, it } from 'vitest'
import { parseDocument } from './parse-document.ts'
import type { ParsedSection } from './parsed-section.ts'
import { workbookWithMergedHeaders } from './testing/office-samples.ts'
import { threeSlideDeck } from './testing/slide-deck.ts'

const sectionsOf = async (data: Uint8Array, filename: string, type: 'xlsx' | 'pptx') => {
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(data, filename, type)) sections.push(section)
  return sections
}

describe('Excel workbooks', () => {
  it('reads a row of every sheet as `column: value` lines, merged headers joined, formulas as their results', async () => {
    const sections = await sectionsOf(await workbookWithMergedHeaders(), 'book.xlsx', 'xlsx')
    expect(sections.map((section) => section.sourceId)).toEqual([
      'book.xlsx:売上!r3',
      'book.xlsx:売上!r4',
      'book.xlsx:売上!r5',
      'book.xlsx:在庫!r2',
      'book.xlsx:在庫!r3',
    ])
    expect(sections[0]?.units).toEqual([
      '店舗: 渋谷店\n売上 上期: 120\n売上 下期: 180\n合計: 300\n地域: 東京',
    ])
    // A region merged down over two rows belongs to both.
    expect(sections[1]?.units[0]).toContain('地域: 東京')
    expect(sections[3]).toMatchObject({
      heading: '在庫',
      units: ['品番: L-200\n品名: ルミナ デスクライト\n在庫数: 42'],
    })
    expect(sections[4]?.units[0]).toContain('在庫数: 0')
  })

  it('reads a sheet of a single row (a note) as that row, not as a header over nothing', async () => {
    const { default: ExcelJS } = await import('exceljs')
    const workbook = new ExcelJS.Workbook()
    workbook.addWorksheet('Sheet1').addRow(['This is neat!', 42])
    const sections = await sectionsOf(Buffer.from(await workbook.xlsx.writeBuffer()), 'note.xlsx', 'xlsx')
    expect(sections).toEqual([
      { sourceId: 'note.xlsx:Sheet1!r1', heading: 'Sheet1', units: ['This is neat!\n42'] },
    ])
  })

  it('says a password-protected workbook (an OLE file) must be saved without the password', async () => {
    const ole = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(512),
    ])
    await expect(sectionsOf(ole, 'locked.xlsx', 'xlsx')).rejects.toThrow(
      /password-protected .* save it without a password as \.xlsx/,
    )
  })

  it('says a corrupt workbook cannot be read', async () => {
    const broken = (await workbookWithMergedHeaders()).subarray(0, 2000)
    await expect(sectionsOf(broken, 'broken.xlsx', 'xlsx')).rejects.toThrow(/not a readable Excel|not a zip/)
    await expect(sectionsOf(new TextEncoder().encode('a,b\n1,2\n'), 'fake.xlsx', 'xlsx')).rejects.toThrow(
      /Excel/,
    )
  })
})

describe('PowerPoint decks', () => {
  it('reads one section per slide: title, text, table rows and speaker notes', async () => {
    const sections = await sectionsOf(await threeSlideDeck(), 'deck.pptx', 'pptx')
    expect(sections.map((section) => [section.sourceId, section.heading])).toEqual([
      ['deck.pptx:s1', 'ルミナ L-200 のご紹介'],
      ['deck.pptx:s2', '仕様'],
      ['deck.pptx:s2:t1:r1', '仕様'],
      ['deck.pptx:s2:t1:r2', '仕様'],
      ['deck.pptx:s3', '保証'],
    ])
    expect(sections[0]?.units).toEqual([
      'ルミナ L-200 のご紹介',
      '充電式のLEDデスクライトです。満充電で8時間点灯します。',
    ])
    // Each row of the slide's table a section of its own, with its column names.
    expect(sections[2]?.units).toEqual(['仕様 — 項目: 重さ / 値: 1.2 kg'])
    expect(sections[3]?.units).toEqual(['仕様 — 項目: 色温度 / 値: 2700K〜6500K'])
    expect(sections[4]?.units).toEqual([
      '保証',
      '保証期間はお買い上げ日から2年間です。',
      'ノート / Notes: 延長保証に加入すると最長5年まで延長できます。',
    ])
  })

  it('says a file that is not a deck cannot be read', async () => {
    await expect(sectionsOf(await workbookWithMergedHeaders(), 'fake.pptx', 'pptx')).rejects.toThrow(
      /not a PowerPoint presentation/,
    )
  })
})

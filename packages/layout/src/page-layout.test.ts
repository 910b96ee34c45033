import { describe, expect, it } from 'vitest'
import { layoutPages } from './page-layout.ts'
import { tableGrid } from './table.ts'
import { pageBuilder, twoLevelHeaderTable } from './testing/page-builder.ts'

const texts = (blocks: { kind: string; text: string }[]) =>
  blocks.map((block) => `${block.kind}: ${block.text}`)

describe('lines and paragraphs', () => {
  it('joins runs on one baseline, without spaces inside Japanese, and lines into paragraphs', () => {
    const page = pageBuilder()
      .text(50, 100, '本製品の保証期間は')
      .text(140, 100, 'お買い上げ日から3年です。')
      .text(50, 113, '保証書は大切に保管してください。')
      .build()
    const [layout] = layoutPages([page])
    expect(texts(layout?.blocks ?? [])).toEqual([
      'paragraph: 本製品の保証期間はお買い上げ日から3年です。保証書は大切に保管してください。',
    ])
  })
})

describe('headings', () => {
  it('tells headings by size and numbering, with their level, from body text', () => {
    const page = pageBuilder()
      .text(50, 60, '第3章 在宅勤務', { size: 18 })
      .text(50, 90, '3.1 申請の手順', { size: 14 })
      .text(50, 115, '在宅勤務は前日までに申請します。上長の承認が必要です。')
      .text(50, 128, '承認は勤怠システムで行います。')
      .build()
    const [layout] = layoutPages([page])
    expect(
      layout?.blocks.map((block) => [block.kind, block.kind === 'heading' ? block.level : null]),
    ).toEqual([
      ['heading', 1],
      ['heading', 2],
      ['paragraph', null],
    ])
  })
})

describe('reading order', () => {
  it('reads two columns left then right when the PDF draws the right column first', () => {
    const builder = pageBuilder()
    for (let i = 0; i < 5; i++)
      builder.text(320, 100 + i * 13, `right column line ${i} of the second column.`)
    for (let i = 0; i < 5; i++) builder.text(50, 100 + i * 13, `left column line ${i} of the first column.`)
    const [layout] = layoutPages([builder.build()])
    const text = layout?.blocks.map((block) => block.text).join(' ') ?? ''
    expect(text.indexOf('left column line 4')).toBeLessThan(text.indexOf('right column line 0'))
  })

  it('keeps the drawing order when it already reads as the page does', () => {
    const builder = pageBuilder()
    for (let i = 0; i < 4; i++) builder.text(50, 100 + i * 13, `the first column's text goes on, line ${i}`)
    for (let i = 0; i < 4; i++)
      builder.text(320, 100 + i * 13, `while the second column's goes on, line ${i}`)
    const [layout] = layoutPages([builder.build()])
    expect(layout?.blocks.map((block) => block.text.slice(0, 40))).toEqual([
      "the first column's text goes on, line 0 ",
      "while the second column's goes on, line ",
    ])
  })
})

describe('running headers, footers and page numbers', () => {
  it('leaves out what every page repeats in its margins, keeping the body', () => {
    const pages = [1, 2, 3, 4].map((n) =>
      pageBuilder(n)
        .text(50, 30, 'ルミナ L-200 取扱説明書')
        .text(50, 300, `本文 ${n} ページ目の説明です。`)
        .text(290, 810, `- ${n} -`)
        .build(),
    )
    const layouts = layoutPages(pages)
    expect(layouts.map((layout) => layout.blocks.map((block) => block.text))).toEqual(
      [1, 2, 3, 4].map((n) => [`本文 ${n} ページ目の説明です。`]),
    )
    expect(layouts[0]?.running.sort()).toEqual(['- 1 -', 'ルミナ L-200 取扱説明書'])
  })
})

describe('tables', () => {
  it('recovers a ruled table cell by cell, a spanning cell once', () => {
    const page = pageBuilder()
      .text(50, 60, '料金プラン一覧', { size: 14 })
      .grid(
        [50, 170, 290, 410],
        [80, 100, 120, 140],
        [
          ['プラン', '月額料金', 'ストレージ'],
          ['スタンダード', '12,000円', '200GB'],
          ['エンタープライズ', '48,000円', '2TB'],
        ],
      )
      .build()
    const [layout] = layoutPages([page])
    const table = layout?.blocks.find((block) => block.kind === 'table')
    expect(table?.kind === 'table' && tableGrid(table.table)).toEqual([
      ['プラン', '月額料金', 'ストレージ'],
      ['スタンダード', '12,000円', '200GB'],
      ['エンタープライズ', '48,000円', '2TB'],
    ])
    expect(table?.kind === 'table' && table.table.headerRows).toBe(1)
    expect(layout?.blocks.map((block) => block.kind)).toEqual(['heading', 'table'])
  })

  it('reads a two-level header as header rows: a spanning name over its sub-columns, never a data row', () => {
    const builder = twoLevelHeaderTable()
    const [layout] = layoutPages([builder.build()])
    const table = layout?.blocks.find((block) => block.kind === 'table')
    if (table?.kind !== 'table') throw new Error('no table')
    expect(table.table.headerRows).toBe(2)
    expect(tableGrid(table.table).slice(2)).toEqual([
      ['セダン', '12.5', '18.0', '200万円'],
      ['ワゴン', '10.2', '15.5', '250万円'],
    ])
  })

  it('joins grid cells the ruling between them does not separate', () => {
    const builder = pageBuilder()
    const xs = [50, 150, 250]
    const ys = [100, 120, 140]
    for (const y of ys) builder.line(50, y, 250, y)
    // The middle vertical ruling only in the second row: the first row is one spanning cell.
    builder.line(50, 100, 50, 140).line(250, 100, 250, 140).line(150, 120, 150, 140)
    builder.text(53, 103, 'Quarterly figures').text(53, 123, 'Q1').text(153, 123, '120')
    const [layout] = layoutPages([builder.build()])
    const table = layout?.blocks.find((block) => block.kind === 'table')
    if (table?.kind !== 'table') throw new Error('no table')
    expect(table.table.cells.map((cell) => [cell.text, cell.row, cell.column, cell.columnSpan])).toEqual([
      ['Quarterly figures', 0, 0, 2],
      ['Q1', 1, 0, 1],
      ['120', 1, 1, 1],
    ])
    expect(xs).toHaveLength(3)
  })

  it('recovers a table drawn without lines from its aligned columns', () => {
    const builder = pageBuilder()
    const rows = [
      ['Model', 'Weight', 'Battery'],
      ['L-100', '0.9 kg', '6 h'],
      ['L-200', '1.2 kg', '8 h'],
      ['L-300', '1.5 kg', '10 h'],
    ]
    for (const [r, row] of rows.entries())
      for (const [c, text] of row.entries()) builder.text(60 + c * 120, 200 + r * 16, text)
    const [layout] = layoutPages([builder.build()])
    const table = layout?.blocks.find((block) => block.kind === 'table')
    expect(table?.kind === 'table' && tableGrid(table.table)).toEqual(rows)
  })

  it('does not take two columns of prose for a table', () => {
    const builder = pageBuilder()
    for (let i = 0; i < 6; i++) {
      builder.text(50, 100 + i * 13, `The first column carries a long sentence number ${i} here`)
      builder.text(320, 100 + i * 13, `and the second column carries another one, ${i} again`)
    }
    const [layout] = layoutPages([builder.build()])
    expect(layout?.blocks.some((block) => block.kind === 'table')).toBe(false)
  })
})

describe('vertical writing', () => {
  it('reads columns of glyphs placed one by one top to bottom, right to left', () => {
    const page = pageBuilder()
      .verticalText(500, 100, '吾輩は猫である。', { size: 12 })
      .verticalText(480, 100, '名前はまだ無い。', { size: 12 })
      .verticalText(460, 100, 'どこで生れたか', { size: 12 })
      .build()
    const [layout] = layoutPages([page])
    expect(layout?.vertical).toBe(true)
    expect(layout?.blocks.map((block) => block.text).join('')).toBe(
      '吾輩は猫である。名前はまだ無い。どこで生れたか',
    )
    // Its place on the page is where the columns stand.
    const box = layout?.blocks[0]?.box
    expect(box?.x).toBeGreaterThanOrEqual(455)
    expect(box?.y).toBeGreaterThanOrEqual(99)
  })
})

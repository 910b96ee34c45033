import { layoutPages } from '@rag/layout'
import { pageBuilder, twoLevelHeaderTable } from '@rag/layout/testing'
import { describe, expect, it } from 'vitest'
import { layoutSections, newLayoutState } from './layout-sections.ts'

const XS = [50, 170, 290, 410]
const rowsAt = (first: number, count: number) => Array.from({ length: count + 1 }, (_, i) => first + i * 20)

describe('tables in laid-out pages', () => {
  it('goes on over a page break with its header repeated: one table, its caption and row numbers kept', () => {
    const header = ['プラン', '月額料金', 'ストレージ']
    const first = pageBuilder(1)
      .text(50, 60, '料金プラン一覧', { size: 14 })
      .grid(XS, rowsAt(80, 3), [header, ['ライト', '980円', '10GB'], ['スタンダード', '12,000円', '200GB']])
      .build()
    const second = pageBuilder(2)
      .grid(XS, rowsAt(60, 3), [
        header,
        ['ビジネス', '30,000円', '1TB'],
        ['エンタープライズ', '48,000円', '2TB'],
      ])
      .build()
    const rows = layoutSections(layoutPages([first, second]), 'plans.pdf', newLayoutState()).filter(
      (section) => section.table,
    )
    expect(rows.map((row) => row.sourceId)).toEqual([
      'plans.pdf:p1:t1:r1',
      'plans.pdf:p1:t1:r2',
      'plans.pdf:p2:t1:r3',
      'plans.pdf:p2:t1:r4',
    ])
    expect(rows[3]?.units).toEqual([
      '料金プラン一覧 — プラン: エンタープライズ / 月額料金: 48,000円 / ストレージ: 2TB',
    ])
  })

  it('names a column under a spanning header by its path, and indexes no header row as data', () => {
    const builder = twoLevelHeaderTable()
    const rows = layoutSections(layoutPages([builder.build()]), 'cars.pdf', newLayoutState()).filter(
      (section) => section.table,
    )
    expect(rows.map((row) => [row.sourceId, row.units[0]])).toEqual([
      ['cars.pdf:p1:t1:r1', '車種: セダン / 燃費 › 市街地: 12.5 / 燃費 › 高速: 18.0 / 価格: 200万円'],
      ['cars.pdf:p1:t1:r2', '車種: ワゴン / 燃費 › 市街地: 10.2 / 燃費 › 高速: 15.5 / 価格: 250万円'],
    ])
  })
})

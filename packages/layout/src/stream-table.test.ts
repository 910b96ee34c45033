import { describe, expect, it } from 'vitest'
import { layoutPages } from './page-layout.ts'
import { tableGrid } from './table.ts'
import { tableInRegion } from './table-in-region.ts'
import { pageBuilder } from './testing/page-builder.ts'

const firstTable = (page: ReturnType<ReturnType<typeof pageBuilder>['build']>) => {
  const block = layoutPages([page])[0]?.blocks.find((b) => b.kind === 'table')
  return block?.kind === 'table' ? block.table : null
}

describe('tables drawn without lines', () => {
  it('keeps the columns under a header that spans them, the header spanning them', () => {
    const builder = pageBuilder().text(175, 100, 'THRESHOLD FOR RELEASES TO THE ENVIRONMENT')
    const rows = [
      ['', 'to air', 'to water', 'to land'],
      ['Methane', '100 000', '-', '-'],
      ['Carbon dioxide', '100 million', '-', '-'],
      ['Nitrous oxide', '10 000', '-', '-'],
    ]
    for (const [r, row] of rows.entries())
      for (const [c, text] of row.entries()) if (text) builder.text(60 + c * 100, 116 + r * 14, text)
    const table = firstTable(builder.build())
    expect(table && tableGrid(table)).toEqual([
      ['', 'THRESHOLD FOR RELEASES TO THE ENVIRONMENT', '', ''],
      ...rows,
    ])
    expect(
      table?.cells.find((cell) => cell.text === 'THRESHOLD FOR RELEASES TO THE ENVIRONMENT')?.columnSpan,
    ).toBe(3)
  })

  it('does not let one long label join the label column to the figures beside it', () => {
    const builder = pageBuilder()
    const rows = [
      ['Variable', 'Mean', 'Max'],
      ['Age', '50.8', '90'],
      ['Gross wealth', '1,234,567', '7,720,000'],
      ['Household income after tax', '9', '22,500'],
      ['Men', '0.47', '1'],
      ['Rural', '0.15', '1'],
    ]
    // Figures set right-aligned: the long label reaches under the widest figure of its column.
    const widths = (text: string) => text.length * 5
    for (const [r, row] of rows.entries()) {
      builder.text(60, 100 + r * 14, row[0] as string)
      builder.text(250 - widths(row[1] as string), 100 + r * 14, row[1] as string)
      builder.text(340 - widths(row[2] as string), 100 + r * 14, row[2] as string)
    }
    const table = firstTable(builder.build())
    expect(table && tableGrid(table)).toEqual(rows)
  })

  it('joins a wrapped label to its row, but keeps a second line of figures a row of its own', () => {
    const builder = pageBuilder()
    const lines = [
      ['Topic', 'Measure', 'Men', 'Women'],
      ['Back pain', 'Count', '202', '56'],
      ['', 'Percentage', '40.9%', '11.3%'],
      ['Chronic fatigue', 'Count', '19', '4'],
      ['', 'Percentage', '3.8%', '0.8%'],
    ]
    for (const [r, row] of lines.entries())
      for (const [c, text] of row.entries()) if (text) builder.text(60 + c * 110, 100 + r * 14, text)
    builder.text(60 + 110, 100 + 5 * 14, 'in cases')
    const table = firstTable(builder.build())
    expect(table && tableGrid(table)).toEqual([
      ...lines.slice(0, 4),
      ['', 'Percentage in cases', '3.8%', '0.8%'],
    ])
  })
})

describe('a table in a given region', () => {
  it('reads rows from the text when the rulings are only under the header', () => {
    const builder = pageBuilder()
    const rows = [
      ['Country', 'Fund', 'Total'],
      ['Bulgaria', '2.3', '5.5'],
      ['Cyprus', '0.21', '0.21'],
      ['Estonia', '1.1', '3'],
    ]
    for (const [r, row] of rows.entries())
      for (const [c, text] of row.entries()) builder.text(60 + c * 100, 100 + r * 14, text)
    // Ruled above and below the header and at the bottom; column lines only between the columns.
    builder.line(55, 97, 360, 97).line(55, 112, 360, 112).line(55, 156, 360, 156)
    builder.line(155, 97, 155, 156).line(255, 97, 255, 156)
    const page = builder.build()
    const table = tableInRegion(page.runs, page.segments, { x: 50, y: 95, width: 320, height: 65 })
    expect(table && tableGrid(table)).toEqual(rows)
  })
})

import type { ComponentChildren } from 'preact'
import type { TableRow } from '../table-row.ts'

/** A table row shown as a table: its caption, its column names over its cells (each as `cell` draws it). */
export function TableRowView({
  row,
  testId,
  cell = (value) => value,
}: {
  row: TableRow
  testId: string
  cell?: (value: string) => ComponentChildren
}) {
  return (
    <table class="table-row" data-testid={testId}>
      {row.caption ? <caption>{row.caption}</caption> : null}
      <thead>
        <tr>
          {row.cells.map((c, index) => (
            <th key={index}>{c.column}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        <tr>
          {row.cells.map((c, index) => (
            <td key={index}>{cell(c.value)}</td>
          ))}
        </tr>
      </tbody>
    </table>
  )
}

import { describe, expect, it } from 'vitest'
import { layoutPages } from './page-layout.ts'
import { newRunningMemory } from './running-lines.ts'
import { pageBuilder } from './testing/page-builder.ts'

/** A book's page: left pages carry the book's title, right pages the chapter's, each with its number. */
function bookPage(n: number, { opening = false, marginNote = '' } = {}) {
  const words = [
    'Piracy',
    'Creators',
    'Mere copyists',
    'Catalogs',
    'Pioneers',
    'Recorders',
    'Transformers',
    'Collectors',
  ]
  const page = pageBuilder(n, { width: 432, height: 594 }).text(60, 60, `${words[n - 1]} begins this page.`)
  page.text(60, 300, `And ${words[n - 1]?.toLowerCase()} goes on further down.`)
  if (marginNote) page.text(60, 530, marginNote)
  const folio = n + 16
  if (opening) page.text(210, 541, String(folio))
  else if (n % 2 === 0)
    page.text(60, 541, `${folio} FREE CULTURE`).text(120, 573, '<http://free-culture.org/get-it>')
  else page.text(300, 541, `“PIRACY” ${folio}`)
  return page.build()
}

describe('running headers and footers', () => {
  it('leaves out left and right pages’ footers and page numbers, keeping a number that is not one', () => {
    const pages = [1, 2, 3, 4, 5, 6, 7, 8].map((n) =>
      bookPage(n, { opening: n === 1 || n === 5, marginNote: n === 3 ? '25' : '' }),
    )
    const layouts = layoutPages(pages)
    for (const layout of layouts)
      expect(layout.blocks.map((block) => block.text).join(' ')).not.toMatch(
        /FREE CULTURE|PIRACY|get-it|^\d+$/,
      )
    // A figure's label at the foot of page 3 is body text: its number is not page 3's.
    expect(layouts[2]?.blocks.map((block) => block.text)).toContain('25')
    expect(layouts[0]?.running).toEqual(['17'])
  })

  it('knows on a later batch of pages what the earlier batches ran', () => {
    const running = newRunningMemory()
    layoutPages(
      [1, 2, 3, 4, 5, 6].map((n) => bookPage(n)),
      running,
    )
    const [alone] = layoutPages([bookPage(8)], running)
    expect(alone?.running.sort()).toEqual(['24 FREE CULTURE', '<http://free-culture.org/get-it>'])
    const [unknown] = layoutPages([bookPage(8)])
    expect(unknown?.running).toEqual([])
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { registerDocument } from '../register-document.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '../testing.ts'

// A web page of a Japanese site is named, and so cited, by its address as people read it.
let fixture: IngestionFixture
let uploadDir: string
beforeAll(async () => {
  ;[fixture, uploadDir] = await Promise.all([
    startIngestionFixture('web-page-names'),
    mkdtemp(join(tmpdir(), 'rag-web-names-')),
  ])
})
afterAll(async () => {
  await fixture?.close()
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
})

const page = (edition: number) =>
  new TextEncoder().encode(`<main><h2>日当</h2><p>第${edition}版。日当は3,000円とする。</p></main>`)
const register = (href: string, edition: number) =>
  registerDocument(
    { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger },
    { uploadDir, maxBytes: 100_000 },
    { filename: href, sourceUrl: href, data: page(edition), collection: 'site' },
  )

describe('a web page’s name', () => {
  it('is its address with the Japanese as letters, and its passages are cited so', async () => {
    const href = new URL('https://intranet.example.com/規程集/出張旅費.html').href
    const { document } = await register(href, 1)
    expect(document.filename).toBe('https://intranet.example.com/規程集/出張旅費.html')
    expect(document.sourceUrl).toBe(href)
    await waitForDocument(fixture.db.pool, document.id)
    const { rows } = await fixture.db.pool.query<{ sourceId: string }>(
      'SELECT source_id AS "sourceId" FROM chunks WHERE document_id = $1',
      [document.id],
    )
    expect(rows.map((row) => row.sourceId)).toContain(
      'https://intranet.example.com/規程集/出張旅費.html#日当',
    )
  })

  it('of a page named by its raw address before: the same document, renamed when its content changes', async () => {
    const href = new URL('https://intranet.example.com/お知らせ.html').href
    const { document } = await register(href, 1)
    await waitForDocument(fixture.db.pool, document.id)
    // As an earlier version named it.
    await fixture.db.pool.query('UPDATE documents SET filename = $2 WHERE id = $1', [document.id, href])
    expect(await register(href, 1)).toMatchObject({ action: 'unchanged', document: { id: document.id } })
    const changed = await register(href, 2)
    expect(changed).toMatchObject({ action: 'replaced', document: { id: document.id } })
    expect(changed.document.filename).toBe('https://intranet.example.com/お知らせ.html')
  })
})

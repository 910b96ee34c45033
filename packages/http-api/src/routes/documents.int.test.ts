import { readFile } from 'node:fs/promises'
import { waitForDocument } from '@rag/ingest/testing'
import { describe, expect } from 'vitest'
import { type GatewayFixture, gatewayTestWith } from '../testing/gateway-fixtures.ts'

// One empty gateway for the file, with an upload limit small enough to reach.
const it = gatewayTestWith('gateway-documents', { uploads: { maxBytes: 200_000, maxFiles: 5 } })

function form(files: [string, Uint8Array | string][], fields: Record<string, string> = {}) {
  const body = new FormData()
  for (const [name, data] of files) body.append('files', new File([data], name))
  for (const [key, value] of Object.entries(fields)) body.append(key, value)
  return body
}

interface Uploaded {
  documents: { id: string; filename: string; action: string }[]
  rejected: { filename: string; status: number; error: string }[]
}
interface Failure {
  error: { message: string }
}
const json = async <T>(response: Response | Promise<Response>) => (await (await response).json()) as T

const post = ({ app }: GatewayFixture, body: FormData) => app.request('/documents', { method: 'POST', body })
const sample = (name: string) => readFile(new URL(`../../../../data/sample/${name}`, import.meta.url))

describe('POST /documents', () => {
  it('accepts several files at once with 202 and an id each, and they become ready', async ({ server }) => {
    const { app, fixture } = server
    const response = await post(
      server,
      form(
        [
          ['lumina-guide.pdf', await sample('lumina-guide.pdf')],
          ['faq.csv', await sample('faq.csv')],
        ],
        { collection: 'manuals', tags: 'lamp, ja' },
      ),
    )
    expect(response.status).toBe(202)
    const body = await json<Uploaded>(response)
    expect(body.rejected).toEqual([])
    expect(body.documents.map((d) => [d.filename, d.action])).toEqual([
      ['lumina-guide.pdf', 'created'],
      ['faq.csv', 'created'],
    ])
    for (const document of body.documents) await waitForDocument(fixture.db.pool, document.id)
    const detail = await json<Record<string, unknown>>(app.request(`/documents/${body.documents[0]?.id}`))
    expect(detail).toMatchObject({
      status: 'ready',
      stage: null,
      chunkCount: 5,
      collection: 'manuals',
      tags: ['lamp', 'ja'],
      error: null,
    })
    const list = await json<{ documents: unknown[] }>(
      app.request('/documents?collection=manuals&status=ready'),
    )
    expect(list.documents).toHaveLength(2)
  })

  it('answers bad files individually while a good file alongside is taken', async ({ server }) => {
    const { fixture } = server
    const response = await post(
      server,
      form([
        ['empty.txt', ''],
        ['clip.mp4', 'mp4'],
        ['../../etc/passwd', 'root:x:0:0'],
        ['good.md', '# Fine\n\nworks'],
      ]),
    )
    expect(response.status).toBe(202)
    const body = await json<Uploaded>(response)
    expect(body.documents.map((d) => d.filename)).toEqual(['good.md'])
    expect(body.rejected).toEqual([
      { filename: 'empty.txt', status: 400, error: 'empty.txt is empty' },
      { filename: 'clip.mp4', status: 415, error: expect.stringMatching(/^unsupported file type "\.mp4"/) },
      {
        filename: '../../etc/passwd',
        status: 415,
        error: expect.stringMatching(/^unsupported file type "passwd"/),
      },
    ])
    expect((await waitForDocument(fixture.db.pool, body.documents[0]?.id ?? '')).status).toBe('ready')
  })

  it('rejects with the first reason when no file is acceptable, naming every reason', async ({ server }) => {
    const response = await post(server, form([['big.txt', 'x'.repeat(200_001)]]))
    expect(response.status).toBe(413)
    expect((await json<Failure>(response)).error.message).toMatch(
      /^big.txt is larger than 200000 bytes \(UPLOAD_MAX_BYTES\)$/,
    )
  })

  it('marks a corrupt file failed with its reason', async ({ server }) => {
    const { app, fixture } = server
    const body = await json<Uploaded>(post(server, form([['broken.pdf', 'not really a pdf']])))
    const done = await waitForDocument(fixture.db.pool, body.documents[0]?.id ?? '')
    const detail = await json<Record<string, unknown>>(app.request(`/documents/${done.id}`))
    expect(detail).toMatchObject({ status: 'failed', error: expect.stringMatching(/^parse: not a PDF/) })
  })

  it('refuses requests that are not uploads', async ({ server }) => {
    const { app } = server
    expect(
      (
        await app.request('/documents', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(415)
    const none = await post(server, new FormData())
    expect(none.status).toBe(400)
    expect((await json<Failure>(none)).error.message).toMatch(/no file/)
    const tooMany = await post(
      server,
      form(Array.from({ length: 6 }, (_, i) => [`n${i}.txt`, 'x'] as [string, string])),
    )
    expect(tooMany.status).toBe(413)
  })
})

describe('document management', () => {
  it('validates ids and answers 404 for unknown documents', async ({ server }) => {
    const { app } = server
    expect((await app.request('/documents/not-a-uuid')).status).toBe(400)
    expect((await app.request('/documents/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await app.request('/documents?status=bogus')).status).toBe(400)
    expect(
      (await app.request('/documents/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status,
    ).toBe(404)
  })

  it('re-indexes a document and deletes it with its chunks', async ({ server }) => {
    const { app, fixture } = server
    const body = await json<Uploaded>(post(server, form([['note.txt', 'a note about the warranty']])))
    const id = body.documents[0]?.id ?? ''
    await waitForDocument(fixture.db.pool, id)
    const reindex = await app.request(`/documents/${id}/reindex`, { method: 'POST' })
    expect(reindex.status).toBe(202)
    expect((await waitForDocument(fixture.db.pool, id)).status).toBe('ready')
    const { rows } = await fixture.db.pool.query(
      'SELECT count(*)::int AS n FROM chunks WHERE document_id = $1',
      [id],
    )
    expect(rows[0]?.n).toBe(1)
    expect((await app.request(`/documents/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await app.request(`/documents/${id}`)).status).toBe(404)
  })
})

describe('GET /documents/:id/sections', () => {
  it('pages through a large document instead of sending it whole', async ({ server }) => {
    const { app, fixture } = server
    const rows = Array.from({ length: 250 }, (_, i) => `q${i},a${i}`).join('\n')
    const body = await json<Uploaded>(post(server, form([['many-rows.csv', `q,a\n${rows}\n`]])))
    const id = body.documents[0]?.id ?? ''
    expect((await waitForDocument(fixture.db.pool, id)).status).toBe('ready')
    const seen: string[] = []
    let next: string | null = `/documents/${id}/sections?limit=100`
    const pages: number[] = []
    while (next) {
      const page: { total: number; next: string | null; sections: { sourceId: string }[] } = await json(
        app.request(next),
      )
      expect(page.total).toBe(250)
      pages.push(page.sections.length)
      seen.push(...page.sections.map((section) => section.sourceId))
      next = page.next
    }
    expect(pages).toEqual([100, 100, 50])
    expect(seen[0]).toBe('many-rows.csv:r1')
    expect(seen.at(-1)).toBe('many-rows.csv:r250')
    expect(new Set(seen).size).toBe(250)
    // A page asked past the end (a link kept from before a re-index) is empty but still says how many there are.
    const past = await json<{ total: number; next: string | null; sections: unknown[] }>(
      app.request(`/documents/${id}/sections?limit=100&offset=400`),
    )
    expect(past).toMatchObject({ total: 250, next: null, sections: [] })
  })
})

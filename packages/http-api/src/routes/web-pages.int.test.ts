import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { documentSections } from '@rag/ingest'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../testing.ts'

// POST /documents/url against a site on loopback (allowed by this gateway's settings, as for an
// intranet), fetched again on re-index; and GET /documents/:id/file for the originals.
const sampleDir = fileURLToPath(new URL('../../../../data/sample/', import.meta.url))
let site: Server
let siteUrl: string
let version = 1
let fixture: IngestionFixture
let gateway: TestGateway
let scratch: string

const page = () => `<!doctype html><html><head><title>店舗案内</title></head><body>
<nav>メニュー</nav><main><h1>店舗案内</h1><h2>営業時間</h2><p>営業時間は午前10時から午後${version === 1 ? 7 : 8}時までです。</p>
<h2>アクセス</h2><p>JR渋谷駅の南口から徒歩5分です。</p></main></body></html>`

beforeAll(async () => {
  site = createServer((request, response) => {
    if (request.url === '/store.html')
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page())
    else if (request.url === '/catalog.pdf')
      response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF')
    else response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  scratch = await mkdtemp(join(tmpdir(), 'rag-web-pages-'))
  fixture = await startIngestionFixture('gateway-web-pages')
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    {
      uploadDir: scratch,
      maxBytes: 1e6,
      maxFiles: 5,
      webPages: { timeoutMs: 60_000, maxRedirects: 3, allowPrivate: true },
    },
  )
})

afterAll(async () => {
  await gateway?.close()
  await fixture?.close()
  site.closeAllConnections()
  await new Promise((resolve) => site.close(resolve))
  await rm(scratch, { recursive: true, force: true })
})

const ingestUrl = (url: string) =>
  gateway.app.request('/documents/url', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url, collection: 'web' }),
  })

describe('web pages', () => {
  it('ingests a page by URL, cited by URL and heading, and fetches it again on re-index', async () => {
    const response = await ingestUrl(`${siteUrl}/store.html#top`)
    expect(response.status).toBe(202)
    const [document] = (
      (await response.json()) as { documents: { id: string; filename: string; sourceUrl: string }[] }
    ).documents
    expect(document).toMatchObject({ filename: `${siteUrl}/store.html`, sourceUrl: `${siteUrl}/store.html` })
    const id = document?.id ?? ''
    expect((await waitForDocument(fixture.db.pool, id)).status).toBe('ready')
    const { sections } = await documentSections(fixture.db.pool, id)
    expect(sections.map((section) => section.sourceId)).toEqual([
      `${siteUrl}/store.html#営業時間`,
      `${siteUrl}/store.html#アクセス`,
    ])
    expect(sections[0]?.text).toContain('午後7時')
    expect(sections.map((section) => section.text).join()).not.toContain('メニュー')

    version = 2
    expect((await gateway.app.request(`/documents/${id}/reindex`, { method: 'POST' })).status).toBe(202)
    await expect
      .poll(async () => (await documentSections(fixture.db.pool, id)).sections[0]?.text, { timeout: 30_000 })
      .toContain('午後8時')
  })

  it('refuses a URL that is not an HTML page, or not fetchable, saying why', async () => {
    const pdf = await ingestUrl(`${siteUrl}/catalog.pdf`)
    expect(pdf.status).toBe(415)
    expect(((await pdf.json()) as { error: { message: string } }).error.message).toMatch(/not an HTML page/)
    expect((await ingestUrl(`${siteUrl}/missing.html`)).status).toBe(502)
    expect((await ingestUrl('ftp://example.com/x')).status).toBe(400)
  })

  it('serves each original with its type, a PDF to open in the browser, the rest to download', async () => {
    const form = new FormData()
    form.append('file', new File([await readFile(join(sampleDir, 'lumina-guide.pdf'))], 'lumina-guide.pdf'))
    form.append('file', new File([await readFile(join(sampleDir, 'faq.csv'))], 'よくある質問.csv'))
    const uploaded = (await (
      await gateway.app.request('/documents', { method: 'POST', body: form })
    ).json()) as {
      documents: { id: string }[]
    }
    const [pdf, csv] = await Promise.all(
      uploaded.documents.map((document) => gateway.app.request(`/documents/${document.id}/file`)),
    )
    expect(pdf?.headers.get('content-type')).toBe('application/pdf')
    expect(pdf?.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''lumina-guide.pdf")
    expect(
      Buffer.from((await pdf?.arrayBuffer()) ?? new ArrayBuffer(0))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-')
    // Chrome's PDF viewer is blank under a sandbox policy: a PDF runs no script, without one.
    const pdfPolicy = pdf?.headers.get('content-security-policy') ?? ''
    expect(pdfPolicy).not.toMatch(/sandbox/)
    expect(pdfPolicy).toMatch(/script-src 'none'/)
    // Anything else shown in the browser is shown, never run.
    expect(csv?.headers.get('content-security-policy')).toMatch(/^sandbox;/)
    expect(csv?.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv?.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('よくある質問.csv')}`,
    )
    expect((await gateway.app.request('/documents/6f1c0a52-3a5e-4b7f-9d3e-0c6a1e2b7f10/file')).status).toBe(
      404,
    )
  })
})

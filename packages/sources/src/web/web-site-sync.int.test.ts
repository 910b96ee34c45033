import { randomUUID } from 'node:crypto'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import { freePort } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertSource, type SourceRecord } from '../source-records.ts'
import { hasApache } from '../testing/apache-server.ts'
import { syncOnce } from '../testing/sync-once.ts'
import { startWebSiteServer, type WebSiteServer } from '../testing/web-site-server.ts'
import { webSiteSource } from './web-site-source.ts'

// A web site kept in sync, against Apache serving a static site on loopback (ETag, Last-Modified,
// 304s as a real server gives them), and a site of traps served by a few lines of Node.
let fixture: IngestionFixture
let scratch: string
let site: WebSiteServer
let traps: Server
let trapsUrl: string

const LIMITS = { maxItems: 40, maxBytes: 200_000, requestTimeoutMs: 20_000, fetchTimeoutMs: 60_000 }

beforeAll(async () => {
  ;[fixture, scratch] = await Promise.all([
    startIngestionFixture('sources-web'),
    mkdtemp(join(tmpdir(), 'rag-web-')),
  ])
  if (hasApache)
    site = await startWebSiteServer(await freePort(), {
      '/away': 'http://example.invalid/page',
      // Redirects to itself, for ever: one unreadable page of its own.
      '/loop': '/loop',
    })
  traps = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://traps')
    const html = (body: string) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<main>${body}</main>`)
    if (url.pathname === '/robots.txt') {
      if (request.headers.host?.startsWith('localhost')) return response.writeHead(503).end()
      return response.writeHead(404).end()
    }
    // A page linking to the next one forever, and to itself.
    if (url.pathname === '/forever') {
      const n = Number(url.searchParams.get('n') ?? 0)
      return html(`<p>Page ${n} of a calendar.</p><a href="/forever?n=${n + 1}">next</a><a href="">self</a>`)
    }
    if (url.pathname === '/links')
      return html(
        `<p>An index.</p>${Array.from({ length: 100_000 }, (_, i) => `<a href=/p${i}>${i}</a>`).join('')}`,
      )
    if (/^\/p\d+$/.test(url.pathname)) return html(`<p>Item ${url.pathname}.</p>`)
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => traps.listen(0, '127.0.0.1', resolve))
  trapsUrl = `http://127.0.0.1:${(traps.address() as AddressInfo).port}`
})
afterAll(async () => {
  await site?.close()
  traps?.closeAllConnections()
  await new Promise((resolve) => traps?.close(resolve))
  await fixture?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

async function addSource(name: string, settings: Record<string, unknown>) {
  return insertSource(fixture.db.pool, {
    id: randomUUID(),
    name,
    kind: 'web',
    collection: name,
    settings,
    credentials: null,
    intervalSeconds: null,
    createdBy: 'test',
  })
}

const sync = (source: SourceRecord, limits: Partial<typeof LIMITS> = {}) =>
  syncOnce({ ...fixture, pool: fixture.db.pool }, source, { scratch, limits: { ...LIMITS, ...limits } })

/** The collection's document names (a page's is its URL), each waited for to be ready. */
async function documents(collection: string) {
  const { rows } = await fixture.db.pool.query<{ id: string; filename: string }>(
    `SELECT id, filename FROM documents WHERE collection = $1 ORDER BY filename`,
    [collection],
  )
  for (const row of rows) await waitForDocument(fixture.db.pool, row.id)
  return rows.map((row) => row.filename.replace(site?.url ?? trapsUrl, ''))
}

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>
  <header><a href="/">Intranet</a></header><nav><a href="/">Home</a><a href="/handbook/">Handbook</a></nav>
  <main><h1>${title}</h1>${body}</main><footer>© Acme</footer></body></html>`

describe.skipIf(!hasApache)('a web site', () => {
  it('syncs the pages links reach (robots.txt, noindex and depth honoured), then re-asks with its validators', async () => {
    const at = (path: string, html: string) =>
      mkdir(join(site.root, path, '..'), { recursive: true }).then(() =>
        writeFile(join(site.root, path), html),
      )
    await at('robots.txt', 'User-agent: *\nDisallow: /private/\n')
    await at(
      'index.html',
      page(
        'Home',
        `<a href="/handbook/">Handbook</a> <a href="/files/prices.csv">Prices</a>
        <a href="/private/salaries.html">Salaries</a> <a href="https://elsewhere.example/">Partner</a>
        <a href="/missing.html">Old link</a> <a href="/draft.html">Draft</a> <a href="/away">Moved</a>`,
      ),
    )
    await at(
      'handbook/index.html',
      page('Handbook', '<p>Leave: 20 days a year.</p><a href="travel.html">Travel</a>'),
    )
    await at(
      'handbook/travel.html',
      page('Travel', '<p>The daily allowance is 3,000 yen.</p><a href="deep.html">Deeper</a>'),
    )
    await at('handbook/deep.html', page('Too deep', '<p>Three links from the start.</p>'))
    await at('files/prices.csv', 'plan,price\nbasic,1000\npro,3000\n')
    await at('private/salaries.html', page('Salaries', '<p>Not for the index.</p>'))
    await at('draft.html', '<meta name="robots" content="noindex"><main><p>Draft.</p></main>')
    const source = await addSource('intranet', { url: `${site.url}/`, depth: 2 })

    const first = await sync(source)
    expect(first.failures).toEqual([
      { key: `${site.url}/away`, reason: expect.stringMatching(/redirects to another site/) },
    ])
    expect(first).toMatchObject({ status: 'partial', added: 4, failed: 1, deleted: 0 })
    expect(await documents('intranet')).toEqual([
      '/',
      '/handbook/',
      '/handbook/travel.html',
      `intranet/127.0.0.1:${new URL(site.url).port}/files/prices.csv`,
    ])
    // Cited by its URL, the page's main content only.
    const { rows } = await fixture.db.pool.query<{ text: string }>(
      `SELECT c.text FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.filename = $1`,
      [`${site.url}/handbook/travel.html`],
    )
    expect(rows.map((row) => row.text).join(' ')).toContain('The daily allowance is 3,000 yen.')
    expect(rows.map((row) => row.text).join(' ')).not.toMatch(/Intranet|© Acme/)

    const before = (await site.requests()).length
    const again = await sync(source)
    expect(again).toMatchObject({ added: 0, changed: 0, unchanged: 4, deleted: 0 })
    // Every page and file synced before was asked for with its validators and not sent again.
    const asked = (await site.requests()).slice(before)
    for (const path of ['/', '/handbook/', '/handbook/travel.html', '/files/prices.csv'])
      expect(asked).toContain(`GET ${path} 304`)
  })

  it('re-reads what changed and deletes what went; a page failing deletes nothing', async () => {
    const source = (
      await fixture.db.pool.query<SourceRecord>(`SELECT * FROM sources WHERE name = 'intranet'`)
    ).rows[0] as SourceRecord
    await writeFile(
      join(site.root, 'handbook/travel.html'),
      page('Travel', '<p>The daily allowance is 4,000 yen.</p>'),
    )
    await rm(join(site.root, 'files/prices.csv'))
    const changed = await sync(source)
    expect(changed).toMatchObject({ changed: 1, unchanged: 2, deleted: 1 })
    expect(await documents('intranet')).toEqual(['/', '/handbook/', '/handbook/travel.html'])

    // The handbook answers 500 now, and the travel page is gone: nothing is deleted this time.
    await mkdir(join(site.root, 'broken'), { recursive: true })
    await writeFile(join(site.root, 'broken/index.html'), page('Broken', '<p>x</p>'))
    await writeFile(
      join(site.root, 'index.html'),
      page('Home', '<a href="/broken/">Handbook</a><a href="/handbook/">H</a>'),
    )
    await rm(join(site.root, 'handbook/travel.html'))
    const failing = await sync(source)
    expect(failing).toMatchObject({ status: 'partial', deleted: 0 })
    expect(failing.failures).toEqual([
      { key: `${site.url}/broken/`, reason: expect.stringMatching(/answered 500/) },
    ])
    expect(await documents('intranet')).toContain('/handbook/travel.html')
  })

  it('keeps a page the server refuses for now (403: a permission, credentials expired), and says so', async () => {
    await writeFile(join(site.root, 'index.html'), page('Home', '<a href="/handbook/">Handbook</a>'))
    const source = await addSource('refusing', { url: `${site.url}/`, depth: 1 })
    expect(await sync(source)).toMatchObject({ status: 'done', added: 2 })
    // Apache serves as www-data: a file nobody may read is refused with 403.
    await chmod(join(site.root, 'handbook/index.html'), 0o000)
    const refused = await sync(source)
    expect(refused).toMatchObject({ status: 'partial', deleted: 0, failed: 1 })
    expect(refused.failures[0]?.reason).toMatch(/answered 403/)
    expect(await documents('refusing')).toEqual(['/', '/handbook/'])
    await chmod(join(site.root, 'handbook/index.html'), 0o644)
  })

  it('counts a page redirecting in a loop as one unreadable page of its own: deletions go on', async () => {
    await writeFile(join(site.root, 'notice.html'), page('Notice', '<p>Closed on Friday.</p>'))
    await writeFile(
      join(site.root, 'index.html'),
      page('Home', '<a href="/loop">Loop</a> <a href="/notice.html">Notice</a>'),
    )
    const source = await addSource('looping', { url: `${site.url}/`, depth: 1 })
    const first = await sync(source)
    expect(first.failures).toEqual([
      { key: `${site.url}/loop`, reason: expect.stringMatching(/redirects more than 5 times/) },
    ])
    expect(await documents('looping')).toContain('/notice.html')
    await rm(join(site.root, 'notice.html'))
    await writeFile(join(site.root, 'index.html'), page('Home', '<a href="/loop">Loop</a>'))
    expect(await sync(source)).toMatchObject({ failed: 1, deleted: 1 })
    expect(await documents('looping')).not.toContain('/notice.html')
  })

  it('reads a sitemap, refusing one that unpacks past the limit or nests without end', async () => {
    await writeFile(
      join(site.root, 'sitemap.xml'),
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>${site.url}/handbook/</loc></url><url><loc>https://elsewhere.example/x</loc></url></urlset>`,
    )
    const mapped = await sync(await addSource('mapped', { url: `${site.url}/sitemap.xml` }))
    expect(mapped).toMatchObject({ status: 'done', seen: 1, added: 1 })
    expect(await documents('mapped')).toEqual(['/handbook/'])

    await writeFile(join(site.root, 'bomb.xml.gz'), gzipSync(Buffer.alloc(50_000_000, ' ')))
    const bomb = await sync(await addSource('bomb', { url: `${site.url}/bomb.xml.gz` }))
    expect(bomb).toMatchObject({ status: 'failed', seen: 0 })
    expect(bomb.error).toMatch(/unpacks to more than 200000 bytes/)

    for (let level = 0; level < 5; level++)
      await writeFile(
        join(site.root, `index-${level}.xml`),
        `<sitemapindex><sitemap><loc>${site.url}/index-${level + 1}.xml</loc></sitemap></sitemapindex>`,
      )
    const nested = await sync(await addSource('nested', { url: `${site.url}/index-0.xml` }))
    expect(nested).toMatchObject({ status: 'failed', seen: 0 })
    expect(nested.error).toMatch(/sitemaps nest deeper than 2 levels/)
  })
})

describe('a site of traps', () => {
  it('a page linking on to the next forever, and to itself, ends at the depth', async () => {
    const shallow = await sync(await addSource('forever', { url: `${trapsUrl}/forever`, depth: 3 }))
    expect(shallow).toMatchObject({ status: 'done', seen: 4, added: 4 })
    const deep = await sync(await addSource('forever-deep', { url: `${trapsUrl}/forever`, depth: 10 }))
    expect(deep).toMatchObject({ status: 'done', seen: 11, added: 11 })
  })

  it('a page of 100,000 links: the page limit, with a reason, and what was read is kept', async () => {
    // The index page is 2.6 MB: within a limit that takes it.
    const outcome = await sync(await addSource('links', { url: `${trapsUrl}/links`, depth: 1 }), {
      maxBytes: 4_000_000,
    })
    // What an item could not be read for, if one could not, says why in the failure.
    expect(outcome, JSON.stringify({ error: outcome.error, failures: outcome.failures })).toMatchObject({
      status: 'failed',
      seen: LIMITS.maxItems,
      added: LIMITS.maxItems,
    })
    expect(outcome.error).toMatch(/more than 40 pages .*SOURCE_MAX_ITEMS.*nothing was deleted/)
  })

  it('a robots.txt the server cannot give stops the sync; a site on a private address is refused unless allowed', async () => {
    const port = new URL(trapsUrl).port
    const robots = await sync(await addSource('robots', { url: `http://localhost:${port}/forever` }))
    expect(robots).toMatchObject({ status: 'failed', seen: 0 })
    expect(robots.error).toMatch(/robots\.txt cannot be read, so the site is not crawled now: .*503/)

    const reader = webSiteSource(
      { url: `${trapsUrl}/forever` },
      { ...LIMITS, maxRedirects: 5, policy: { allowPrivate: [] } },
    )
    const listing = async () => {
      for await (const _ of reader.list(new Map(), new AbortController().signal));
    }
    await expect(listing()).rejects.toThrow(/private address/)
    await reader.close?.()
  })
})

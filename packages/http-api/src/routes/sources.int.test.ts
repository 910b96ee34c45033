import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { freePort } from '@rag/runtime'
import {
  APACHE_DAV_MODULE,
  startTestSyncWorker,
  startWebdavServer,
  type WebdavServer,
} from '@rag/sources/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from '../test-gateway.ts'
import { keyedCaller, mintKeys } from '../testing/collections-gateway.ts'

const hasApache = (await findTestAsset(testConfig.parse(processEnvironment()).test, APACHE_DAV_MODULE)).found

// Sources through the API, synced by the watcher's worker (here in this process) from a WebDAV
// share (Apache mod_dav on loopback): who may add, sync and remove one; credentials that never
// come back; the sync's progress and outcome as the API shows it.
const ADMIN = 'sources-admin-key-0123456789'
const SECRET = 'sources-secret-0123456789abcdef'
let fixture: IngestionFixture
let gateway: TestGateway
let webdav: WebdavServer
let scratch: string
let worker: { close(): Promise<void> }
let keys: Record<string, string>
let call: ReturnType<typeof keyedCaller>

beforeAll(async () => {
  if (!hasApache) return
  ;[fixture, webdav, scratch] = await Promise.all([
    startIngestionFixture('sources-api'),
    freePort().then(startWebdavServer),
    mkdtemp(join(tmpdir(), 'rag-sources-api-')),
  ])
  const uploads = { uploadDir: join(scratch, 'uploads'), maxBytes: 1e6, maxFiles: 2 }
  const deps = { ...fixture, pool: fixture.db.pool }
  gateway = await createTestGateway(deps, uploads, {
    access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
    sourceCredentialKeys: { current: SECRET },
  })
  worker = startTestSyncWorker(deps, { dir: scratch, secret: SECRET })
  call = keyedCaller(gateway)
  keys = await mintKeys(gateway, ADMIN, [
    ['editor', 'editor', ['manuals']],
    ['other-editor', 'editor', ['legal']],
    ['reader', 'reader', ['manuals']],
  ])
  await writeFile(join(webdav.root, 'guide.md'), '# Guide\n\nThe warranty lasts two years.')
  await writeFile(join(webdav.root, 'faq.txt'), 'Returns are accepted within 30 days.')
})
afterAll(async () => {
  await worker?.close()
  await gateway?.close()
  await webdav?.close()
  await fixture?.close()
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

const share = () => ({
  name: 'share',
  kind: 'webdav',
  collection: 'manuals',
  settings: { url: webdav.url.replace('127.0.0.1', 'localhost') },
  credentials: { username: webdav.username, password: webdav.password },
})

/** A source once its last sync (that one, when named) ended. */
async function synced(id: string, syncId?: string) {
  const read = async () => (await call(keys.reader as string, 'GET', `/sources/${id}`)).body
  const ended = (body: Record<string, unknown>) => {
    const last = body.lastSync as { id: string; status: string } | null
    return Boolean(last && last.status !== 'running' && (!syncId || last.id === syncId))
  }
  await expect.poll(async () => ended(await read()), { timeout: 60_000 }).toBe(true)
  return read()
}

describe.skipIf(!hasApache)('sources through the API', () => {
  it('are added by an admin for a private address, synced at once, and shown without their credentials', async () => {
    const refused = await call(keys.editor as string, 'POST', '/sources', share())
    expect(refused.status).toBe(403)
    expect(String((refused.body.error as { message: string }).message)).toMatch(
      /private address is added by an admin/,
    )

    const added = await call(ADMIN, 'POST', '/sources', share())
    expect(added.status).toBe(201)
    expect(JSON.stringify(added.body)).not.toContain(webdav.password)
    expect(added.body).toMatchObject({
      name: 'share',
      kind: 'webdav',
      hasCredentials: true,
      collection: 'manuals',
    })
    const row = await fixture.db.pool.query<{ credentials: string }>(
      `SELECT credentials FROM sources WHERE name = 'share'`,
    )
    expect(row.rows[0]?.credentials).toMatch(/^v1\./)
    expect(row.rows[0]?.credentials).not.toContain(webdav.password)

    const source = await synced(added.body.id as string)
    expect(source.lastSync).toMatchObject({ status: 'done', seen: 2, added: 2, failed: 0 })
    const documents = await call(keys.reader as string, 'GET', '/documents?collection=manuals')
    expect((documents.body.documents as { filename: string }[]).map((d) => d.filename).sort()).toEqual([
      'share/faq.txt',
      'share/guide.md',
    ])
  })

  it('are synced again when an editor of the collection asks, and the syncs are listed', async () => {
    const { body: list } = await call(keys.reader as string, 'GET', '/sources')
    const id = (list.sources as { id: string }[])[0]?.id as string
    expect((await call(keys.reader as string, 'POST', `/sources/${id}/sync`)).status).toBe(403)
    expect((await call(keys['other-editor'] as string, 'POST', `/sources/${id}/sync`)).status).toBe(404)

    await rm(join(webdav.root, 'faq.txt'))
    const started = await call(keys.editor as string, 'POST', `/sources/${id}/sync`)
    expect(started.status).toBe(202)
    const source = await synced(id, started.body.syncId as string)
    expect(source.lastSync).toMatchObject({ status: 'done', unchanged: 1, deleted: 1 })
    const { body } = await call(keys.reader as string, 'GET', `/sources/${id}/syncs`)
    expect((body.syncs as unknown[]).length).toBe(2)
    // Another collection's editor does not see it.
    expect((await call(keys['other-editor'] as string, 'GET', '/sources')).body.sources).toEqual([])
  })

  it('say what is wrong with a request', async () => {
    const bad = await call(ADMIN, 'POST', '/sources', { ...share(), name: 'x/../y' })
    expect(bad.status).toBe(400)
    for (const body of [
      { ...share(), kind: 'ftp' },
      { ...share(), settings: {} },
      { ...share(), settings: { url: 'file:///etc/passwd' } },
      { ...share(), intervalMinutes: 0 },
      { ...share(), credentials: { password: 'x'.repeat(20_001) } },
      { ...share(), kind: 'web', settings: { url: 'https://intranet.example.com/', depth: 11 } },
      { ...share(), kind: 'web', settings: { url: 'ftp://intranet.example.com/' } },
    ])
      expect((await call(ADMIN, 'POST', '/sources', body)).status, JSON.stringify(body).slice(0, 80)).toBe(
        400,
      )
    const notJson = await gateway.app.request('/sources', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: '{"name":',
    })
    expect(notJson.status).toBe(400)
    const git = await call(keys.editor as string, 'POST', '/sources', {
      name: 'local-repo',
      kind: 'git',
      collection: 'manuals',
      settings: { url: '/etc' },
    })
    expect(git.status).toBe(403)
    // A site on this machine is an admin's to add: its crawler may then fetch loopback.
    const site = await call(keys.editor as string, 'POST', '/sources', {
      name: 'local-site',
      kind: 'web',
      collection: 'manuals',
      settings: { url: 'http://127.0.0.1:8080/' },
    })
    expect(site.status).toBe(403)
    const duplicate = await call(ADMIN, 'POST', '/sources', share())
    expect(duplicate.status).toBe(409)
    // A name is its collection's: another collection may have a source of that name too.
    const elsewhere = await call(ADMIN, 'POST', '/sources', { ...share(), collection: 'legal' })
    expect(elsewhere.status).toBe(201)
    // (204: no body to read.)
    await call(ADMIN, 'DELETE', `/sources/${(elsewhere.body as { id: string }).id}`).catch(() => undefined)
  })

  it('are changed by an editor: credentials that stopped working replaced, a schedule set, nothing indexed lost', async () => {
    const { body: list } = await call(keys.reader as string, 'GET', '/sources')
    const id = (list.sources as { id: string }[])[0]?.id as string
    const change = (key: string, body: unknown) => call(key, 'PATCH', `/sources/${id}`, body)
    expect((await change(keys.reader as string, { intervalMinutes: 5 })).status).toBe(403)
    expect((await change(keys['other-editor'] as string, { intervalMinutes: 5 })).status).toBe(404)

    // The password changed at the server: the sync the change starts says so; the documents stay.
    const expired = await change(keys.editor as string, {
      credentials: { username: webdav.username, password: 'changed-at-the-server' },
    })
    expect(expired.status).toBe(200)
    expect(JSON.stringify(expired.body)).not.toContain('changed-at-the-server')
    const refused = await synced(id, expired.body.syncId as string)
    expect(refused.lastSync).toMatchObject({ status: 'failed', deleted: 0 })
    expect(String((refused.lastSync as { error: string }).error)).toMatch(/401/)
    const documents = async () =>
      (
        (await call(keys.reader as string, 'GET', '/documents?collection=manuals')).body.documents as {
          filename: string
        }[]
      )
        .map((d) => d.filename)
        .sort()
    expect(await documents()).toEqual(['share/guide.md'])

    await writeFile(join(webdav.root, 'returns.txt'), 'Returns are accepted within 60 days.')
    const fixed = await change(keys.editor as string, {
      credentials: { username: webdav.username, password: webdav.password },
    })
    expect(fixed.status).toBe(200)
    const source = await synced(id, fixed.body.syncId as string)
    expect(source.lastSync).toMatchObject({ status: 'done', added: 1, unchanged: 1 })

    const scheduled = await change(keys.editor as string, { intervalMinutes: 60 })
    expect(scheduled.body).toMatchObject({ intervalMinutes: 60, hasCredentials: true, syncId: null })
    const next = Date.parse(scheduled.body.nextSyncAt as string) - Date.now()
    expect(next).toBeGreaterThan(50 * 60_000)
    expect((await change(keys.editor as string, { intervalMinutes: null })).body).toMatchObject({
      intervalMinutes: null,
      nextSyncAt: null,
    })

    // Said clearly: nothing to change, a misspelt credential (which would otherwise clear them),
    // settings not of its kind, a private place for an editor.
    for (const [body, message] of [
      [{}, /nothing to change/],
      [{ credentials: { pasword: 'x' } }, /credentials: none of a webdav source's \(username, password\)/],
      [{ settings: { url: 'ftp://dav.example.com/' } }, /settings\.url: must be an http\(s\) URL/],
      [{ intervalMinutes: 0 }, /intervalMinutes/],
    ] as const) {
      const bad = await change(keys.editor as string, body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
      expect(JSON.stringify(bad.body)).toMatch(message)
    }
    expect((await change(keys.editor as string, { settings: { url: 'http://10.0.0.5/dav/' } })).status).toBe(
      403,
    )
    expect((await change(keys.editor as string, { credentials: null })).body).toMatchObject({
      hasCredentials: false,
    })
    expect(await documents()).toEqual(['share/guide.md', 'share/returns.txt'])
  })

  it('are removed with the documents they brought, and the audit log says who did what', async () => {
    const { body: list } = await call(keys.reader as string, 'GET', '/sources')
    const id = (list.sources as { id: string }[])[0]?.id as string
    const removed = await gateway.app.request(`/sources/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${keys.editor}` },
    })
    expect(removed.status).toBe(204)
    expect((await call(keys.reader as string, 'GET', `/sources/${id}`)).status).toBe(404)
    const documents = await call(keys.reader as string, 'GET', '/documents?collection=manuals')
    expect(documents.body.documents).toEqual([])
    const audit = await call(ADMIN, 'GET', '/audit?limit=50')
    const actions = (audit.body.entries as { action: string; target: string | null }[])
      .filter((entry) => entry.action.startsWith('source.'))
      .map((entry) => entry.action)
    expect(actions).toEqual(expect.arrayContaining(['source.change', 'source.sync']))
  })
})

import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { freePort } from '@rag/runtime'
import {
  APACHE_DAV_MODULE,
  startTestSyncWorker,
  startWebdavServer,
  startWebSiteServer,
  type WebdavServer,
  type WebSiteServer,
} from '@rag/sources/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runRag } from './rag-program.ts'

const hasApache = (await findTestAsset(testConfig.parse(processEnvironment()).test, APACHE_DAV_MODULE)).found

// `rag sources` against a real gateway, the watcher's sync worker and a WebDAV share (Apache).
const SECRET = 'cli-sources-secret-0123456789'
let server: GatewayServer
let webdav: WebdavServer
let site: WebSiteServer
let worker: { close(): Promise<void> }

beforeAll(async () => {
  if (!hasApache) return
  ;[server, webdav, site] = await Promise.all([
    startGatewayServer('cli-sources', { gateway: { sourceCredentialKeys: { current: SECRET } } }),
    freePort().then(startWebdavServer),
    freePort().then((port) => startWebSiteServer(port)),
  ])
  const { fixture, dir } = server
  worker = startTestSyncWorker({ ...fixture, pool: fixture.db.pool }, { dir, secret: SECRET })
  await writeFile(join(webdav.root, 'guide.md'), '# Guide\n\nThe warranty lasts two years.')
})
afterAll(async () => {
  await worker?.close()
  await webdav?.close()
  await site?.close()
  await server?.close()
})

async function rag(args: string[], env: Record<string, string> = {}) {
  let stdout = ''
  let stderr = ''
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk))
        done()
      },
    })
  const code = await runRag(args, {
    stdout: sink((text) => (stdout += text)),
    stderr: sink((text) => (stderr += text)),
    env: { GATEWAY_URL: server.baseUrl, LOG_LEVEL: 'warn', ...env },
  })
  return { code, stdout, stderr }
}

describe.skipIf(!hasApache)('rag sources', () => {
  it('adds a WebDAV share (its password from a variable), syncs it to the end, lists and removes it', async () => {
    expect((await rag(['collections', 'create', 'manuals'])).code).toBe(0)
    const added = await rag(
      [
        'sources',
        'add',
        'share',
        '--kind',
        'webdav',
        '--url',
        webdav.url,
        '--collection',
        'manuals',
        '--username',
        webdav.username,
        '--password-env',
        'DAV_PASSWORD',
      ],
      { DAV_PASSWORD: webdav.password },
    )
    expect(added.code, added.stderr).toBe(0)
    expect(added.stdout).toBe('share: added (webdav, collection manuals); syncing now\n')

    // The first sync (asked by add, or joined by this one) to its end; then a file more.
    expect((await rag(['sources', 'sync', 'share'])).code).toBe(0)
    await writeFile(join(webdav.root, 'faq.txt'), 'Returns are accepted within 30 days.')
    const synced = await rag(['sources', 'sync', 'share'])
    expect(synced.code, synced.stderr).toBe(0)
    expect(synced.stdout).toMatch(/^share: sync [0-9a-f-]{36} asked\n/)
    expect(synced.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^share: done: 2 seen, 1 new, 0 changed, 1 unchanged, 0 deleted, 0 failed$/,
    )

    const listed = await rag(['sources', 'list'])
    expect(listed.stdout).toMatch(
      /^share\twebdav\tmanuals\thttp:\/\/127\.0\.0\.1:\d+\/dav\/\twhen asked\tdone: /,
    )
    expect(listed.stdout).not.toContain(webdav.password)

    const removed = await rag(['sources', 'remove', 'share'])
    expect(removed.code).toBe(0)
    expect((await rag(['documents', '--collection', 'manuals'])).stdout).not.toContain('share/')
  })

  it('adds a web site by its start page and a depth, and syncs the pages its links reach', async () => {
    await writeFile(
      join(site.root, 'index.html'),
      '<main><p>Welcome.</p><a href="hours.html">Hours</a></main>',
    )
    await writeFile(
      join(site.root, 'hours.html'),
      '<main><p>Open 9 to 5.</p><a href="far.html">More</a></main>',
    )
    await writeFile(join(site.root, 'far.html'), '<main><p>Two links away.</p></main>')
    // A source only for a collection that exists: the misspelt or new one is refused, naming it.
    const addIntranet = (...depth: string[]) =>
      rag([
        'sources',
        'add',
        'intranet',
        '--kind',
        'web',
        '--url',
        `${site.url}/`,
        ...depth,
        '--collection',
        'site',
      ])
    const early = await addIntranet()
    expect(early.code).toBe(1)
    expect(early.stderr).toMatch(/^rag: no collection "site": .*rag collections create/)
    expect((await rag(['collections', 'create', 'site'])).code).toBe(0)
    const added = await addIntranet('--depth', '1')
    expect(added.code, added.stderr).toBe(0)
    const synced = await rag(['sources', 'sync', 'intranet'])
    expect(synced.code, synced.stderr).toBe(0)
    expect(synced.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^intranet: done: 2 seen, (2 new|0 new, 0 changed, 2 unchanged)/,
    )
    const documents = (await rag(['documents', '--collection', 'site'])).stdout
    expect(documents).toContain(`${site.url}/hours.html`)
    expect(documents).not.toContain('far.html')
  })

  it('changes a share whose password changed, follows the sync that starts, and sets its schedule', async () => {
    expect((await rag(['collections', 'create', 'changes'])).code).toBe(0)
    const add = [
      'sources',
      'add',
      'renamed-share',
      '--kind',
      'webdav',
      '--url',
      webdav.url,
      '--collection',
      'changes',
      '--username',
      webdav.username,
      '--password-env',
      'DAV_PASSWORD',
    ]
    expect((await rag(add, { DAV_PASSWORD: 'the-old-password' })).code).toBe(0)
    const refused = await rag(['sources', 'sync', 'renamed-share'])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toMatch(/failed: .*401/)

    const changed = await rag(
      ['sources', 'change', 'renamed-share', '--password-env', 'NEW_PASSWORD', '--username', webdav.username],
      { NEW_PASSWORD: webdav.password },
    )
    expect(changed.code, changed.stderr).toBe(0)
    expect(changed.stdout).toMatch(/^renamed-share: changed \(with credentials, synced when asked\)\n/)
    expect(changed.stdout.trimEnd().split('\n').at(-1)).toMatch(/^renamed-share: done: \d+ seen, \d+ new/)
    expect(changed.stdout).not.toContain(webdav.password)

    const scheduled = await rag(['sources', 'change', 'renamed-share', '--every', '30'])
    expect(scheduled.stdout).toBe('renamed-share: changed (with credentials, synced every 30 min)\n')
    expect((await rag(['sources', 'list'])).stdout).toMatch(
      /renamed-share\twebdav\tchanges\t.*\tevery 30 min\t/,
    )
    expect((await rag(['sources', 'change', 'renamed-share', '--no-schedule'])).stdout).toContain(
      'synced when asked',
    )
    const nothing = await rag(['sources', 'change', 'renamed-share'])
    expect(nothing.code).toBe(1)
    expect(nothing.stderr).toMatch(/nothing to change/)
    expect((await rag(['sources', 'remove', 'renamed-share'])).code).toBe(0)
  })

  it('says what is missing in one line and exits 2 or 1', async () => {
    const noPassword = await rag([
      'sources',
      'add',
      'x',
      '--kind',
      'webdav',
      '--url',
      webdav.url,
      '--collection',
      'c',
      '--password-env',
      'NOPE',
    ])
    expect(noPassword.code).toBe(1)
    expect(noPassword.stderr).toMatch(/--password-env: the variable NOPE is not set/)
    const noKind = await rag(['sources', 'add', 'x', '--collection', 'c'])
    expect(noKind.code).toBe(2)
    const unknown = await rag(['sources', 'sync', 'nothing-here'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toMatch(/no source named "nothing-here"/)
  })
})

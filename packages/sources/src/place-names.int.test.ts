import { execFileSync } from 'node:child_process'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { freePort } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceRecord } from './source-records.ts'
import { hasApache } from './testing/apache-server.ts'
import { type SyncTestBed, startSyncTestBed } from './testing/sync-test-bed.ts'
import { startWebdavServer, type WebdavServer } from './testing/webdav-server.ts'
import { type S3Server, startS3Server, startWebSiteServer } from './testing.ts'

// Names as a Japanese team writes them — kanji, kana, spaces, '#', '%' — through each place's own
// encoding of them (WebDAV hrefs, S3 keys in XML listings, Git paths): a document is named as the
// file is, a re-sync finds it unchanged (the name read back is the name recorded), and a deletion
// there finds it here.
const NAMES = ['規程集/出張 旅費.md', 'お知らせ #3 (100%).txt']
const body = (name: string, edition: number) => `# ${name}\n\n第${edition}版。日当は3,000円とする。\n`

let bed: SyncTestBed
let webdav: WebdavServer | undefined
let s3: S3Server

beforeAll(async () => {
  ;[bed, s3] = await Promise.all([
    startSyncTestBed('sources-names', {
      maxItems: 100,
      maxBytes: 100_000,
      requestTimeoutMs: 20_000,
      fetchTimeoutMs: 60_000,
    }),
    startS3Server(['names']),
  ])
  if (hasApache) webdav = await startWebdavServer(await freePort())
})
afterAll(async () => {
  await webdav?.close()
  await s3?.close()
  await bed?.close()
})

/** A source of a kind (its collection `names-<kind>`), and a sync of it with its credentials. */
async function syncs(kind: SourceRecord['kind'], settings: Record<string, unknown>, credentials = {}) {
  const source = await bed.addSource(kind, `names-${kind}`, settings)
  return () => bed.sync(source, credentials)
}
const filenames = (collection: string) => bed.filenames(collection)

/** The same three syncs on every kind: all new; nothing changed; one changed and one deleted. */
async function followsNames(
  kind: SourceRecord['kind'],
  sync: () => ReturnType<SyncTestBed['sync']>,
  place: { write(name: string, edition: number): Promise<void>; remove(name: string): Promise<void> },
  /** Where the names sit in the place (an S3 key keeps its prefix). */
  under = '',
) {
  const [folder, file] = NAMES as [string, string]
  const named = (name: string) => `names-${kind}/${under}${name}`
  expect(await sync()).toMatchObject({ status: 'done', added: 2, failed: 0 })
  expect(await filenames(`names-${kind}`)).toEqual([named(file), named(folder)])
  expect(await sync()).toMatchObject({ status: 'done', added: 0, changed: 0, unchanged: 2, deleted: 0 })
  await place.write(folder, 2)
  await place.remove(file)
  expect(await sync()).toMatchObject({ status: 'done', changed: 1, deleted: 1, failed: 0 })
  expect(await filenames(`names-${kind}`)).toEqual([named(folder)])
}

describe.skipIf(!hasApache)('a WebDAV folder', () => {
  it('follows files named in Japanese, with spaces and signs', async () => {
    if (!webdav) throw new Error('no server')
    const root = webdav.root
    const write = async (name: string, edition: number) => {
      await mkdir(join(root, name, '..'), { recursive: true })
      await writeFile(join(root, name), body(name, edition))
    }
    for (const name of NAMES) await write(name, 1)
    const sync = await syncs(
      'webdav',
      { url: webdav.url },
      { username: webdav.username, password: webdav.password },
    )
    await followsNames('webdav', sync, { write, remove: (name) => rm(join(root, name)) })
  })
})

describe('an S3 bucket', () => {
  it('follows keys named in Japanese, with spaces and signs', async () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    })
    const write = async (name: string, edition: number) => {
      await client.send(
        new PutObjectCommand({ Bucket: 'names', Key: `docs/${name}`, Body: body(name, edition) }),
      )
    }
    const remove = async (name: string) => {
      await client.send(new DeleteObjectCommand({ Bucket: 'names', Key: `docs/${name}` }))
    }
    for (const name of NAMES) await write(name, 1)
    const sync = await syncs(
      's3',
      { bucket: 'names', prefix: 'docs/', endpoint: s3.endpoint },
      { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    )
    try {
      await followsNames('s3', sync, { write, remove }, 'docs/')
    } finally {
      client.destroy()
    }
  })
})

describe('a Git repository', () => {
  it('follows paths named in Japanese, with spaces and signs', async () => {
    const repo = join(bed.scratch, 'names-repo')
    await mkdir(repo, { recursive: true })
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' })
    git('init', '-q', '-b', 'main')
    git('config', 'user.email', 'a@example.com')
    git('config', 'user.name', 'A')
    const write = async (name: string, edition: number) => {
      await mkdir(join(repo, name, '..'), { recursive: true })
      await writeFile(join(repo, name), body(name, edition))
    }
    const commit = () => {
      git('add', '-A')
      git('commit', '-qm', 'next')
    }
    for (const name of NAMES) await write(name, 1)
    commit()
    const sync = await syncs('git', { url: repo, ref: 'main' })
    await followsNames('git', sync, {
      write: async (name, edition) => {
        await write(name, edition)
      },
      remove: async (name) => {
        await rm(join(repo, name))
        commit()
      },
    })
  })
})

describe.skipIf(!hasApache)('a web site', () => {
  it('follows pages whose addresses are Japanese, linked raw or percent-encoded', async () => {
    const site = await startWebSiteServer(await freePort())
    try {
      const page = (name: string, edition: number) =>
        `<html><body><main><h1>${name}</h1><p>第${edition}版。日当は3,000円とする。</p></main></body></html>`
      await mkdir(join(site.root, '規程集'), { recursive: true })
      await writeFile(join(site.root, '規程集', '出張 旅費.html'), page('出張旅費', 1))
      await writeFile(join(site.root, 'お知らせ.html'), page('お知らせ', 1))
      // One link as people type it, one as a CMS writes it.
      await writeFile(
        join(site.root, 'index.html'),
        `<main><h1>規程</h1><a href="規程集/出張 旅費.html">出張</a> <a href="${encodeURI('/お知らせ.html')}">お知らせ</a></main>`,
      )
      const sync = await syncs('web', { url: `${site.url}/`, depth: 1 })
      // Named as people read the address: the Japanese as letters (a space stays %20).
      const named = (path: string) => `${site.url}${path.replaceAll(' ', '%20')}`
      expect(await sync()).toMatchObject({ status: 'done', added: 3, failed: 0 })
      expect(await filenames('names-web')).toEqual(
        [named('/'), named('/お知らせ.html'), named('/規程集/出張 旅費.html')].sort(),
      )
      expect(await sync()).toMatchObject({ status: 'done', added: 0, changed: 0, unchanged: 3 })
      await writeFile(join(site.root, '規程集', '出張 旅費.html'), page('出張旅費', 2))
      await rm(join(site.root, 'お知らせ.html'))
      expect(await sync()).toMatchObject({ status: 'done', changed: 1, deleted: 1, failed: 0 })
    } finally {
      await site.close()
    }
  })
})

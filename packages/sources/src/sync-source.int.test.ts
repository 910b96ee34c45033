import { execFileSync } from 'node:child_process'
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3'
import { deleteDocument } from '@rag/ingest'
import type { IngestionFixture } from '@rag/ingest/testing'
import { freePort } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SourceReader } from './source-listing.ts'
import { removeSource, type SourceRecord } from './source-records.ts'
import { syncSource } from './sync-source.ts'
import { hasApache } from './testing/apache-server.ts'
import { type SyncTestBed, startSyncTestBed } from './testing/sync-test-bed.ts'
import { startWebdavServer, type WebdavServer } from './testing/webdav-server.ts'
import { type S3Server, startS3Server } from './testing.ts'

// Each kind of source against a real server on loopback: Apache's mod_dav, s3rver, a Git
// repository on disk. A sync ingests what is new, re-reads only what changed, deletes what was
// deleted there, and deletes nothing when part of the place could not be read.
let bed: SyncTestBed
let fixture: IngestionFixture
let scratch: string
let webdav: WebdavServer
let s3: S3Server

const LIMITS = { maxItems: 1000, maxBytes: 200_000, requestTimeoutMs: 20_000, fetchTimeoutMs: 60_000 }

beforeAll(async () => {
  ;[bed, s3] = await Promise.all([startSyncTestBed('sources-sync', LIMITS), startS3Server(['exports'])])
  ;({ fixture, scratch } = bed)
  if (hasApache) webdav = await startWebdavServer(await freePort())
})
afterAll(async () => {
  await webdav?.close()
  await s3?.close()
  await bed?.close()
})

const addSource = (...args: Parameters<SyncTestBed['addSource']>) => bed.addSource(...args)
const sync = (...args: Parameters<SyncTestBed['sync']>) => bed.sync(...args)
const filenames = (collection: string) => bed.filenames(collection)

describe.skipIf(!hasApache)('a WebDAV folder', () => {
  it('syncs, re-syncs reading only what changed, and deletes what was deleted there', async () => {
    await mkdir(join(webdav.root, 'manuals'), { recursive: true })
    await writeFile(join(webdav.root, 'manuals', 'guide.md'), '# Guide\n\nThe warranty lasts two years.')
    await writeFile(join(webdav.root, 'faq.txt'), 'Returns are accepted within 30 days.')
    await writeFile(join(webdav.root, 'photo.xyz'), 'not a document')
    const source = await addSource('webdav', 'share', { url: webdav.url })
    const credentials = { username: webdav.username, password: webdav.password }

    const first = await sync(source, credentials)
    expect(first).toMatchObject({ status: 'done', seen: 3, added: 2, ignored: 1, failed: 0, deleted: 0 })
    expect(await filenames('share')).toEqual(['share/faq.txt', 'share/manuals/guide.md'])

    const again = await sync(source, credentials)
    expect(again).toMatchObject({ status: 'done', seen: 3, added: 0, changed: 0, unchanged: 2, deleted: 0 })

    await writeFile(join(webdav.root, 'faq.txt'), 'Returns are accepted within 60 days.')
    await rm(join(webdav.root, 'manuals', 'guide.md'))
    const third = await sync(source, credentials)
    expect(third).toMatchObject({ status: 'done', changed: 1, unchanged: 0, deleted: 1 })
    expect(await filenames('share')).toEqual(['share/faq.txt'])
  })

  it('deletes nothing when the server fails halfway through the walk, and says why', async () => {
    await mkdir(join(webdav.root, 'broken'), { recursive: true })
    await rm(join(webdav.root, 'faq.txt'))
    const source = (
      await fixture.db.pool.query<SourceRecord>(
        `SELECT id, name, kind, collection, settings FROM sources WHERE name = 'share'`,
      )
    ).rows[0] as SourceRecord
    const partial = await sync(source, { username: webdav.username, password: webdav.password })
    expect(partial.status).toBe('failed')
    expect(partial.error).toMatch(/could not list \/dav\/broken\/.*500/)
    expect(partial.deleted).toBe(0)
    expect(await filenames('share')).toEqual(['share/faq.txt'])
    await rm(join(webdav.root, 'broken'), { recursive: true })
  })

  it('deletes nothing while a file there cannot be read, and catches up once it can', async () => {
    const source = (
      await fixture.db.pool.query<SourceRecord>(
        `SELECT id, name, kind, collection, settings FROM sources WHERE name = 'share'`,
      )
    ).rows[0] as SourceRecord
    const credentials = { username: webdav.username, password: webdav.password }
    await writeFile(join(webdav.root, 'a.txt'), 'Alpha, first edition.')
    await writeFile(join(webdav.root, 'b.txt'), 'Beta.')
    expect((await sync(source, credentials)).status).toBe('done')

    // a.txt changed but unreadable to the server (403 on GET, listed by PROPFIND); b.txt deleted.
    await writeFile(join(webdav.root, 'a.txt'), 'Alpha, second edition.')
    await chmod(join(webdav.root, 'a.txt'), 0o000)
    await rm(join(webdav.root, 'b.txt'))
    const blocked = await sync(source, credentials)
    expect(blocked).toMatchObject({ status: 'partial', failed: 1, deleted: 0 })
    expect(blocked.error).toMatch(/1 item\(s\) could not be read: nothing was deleted/)
    expect(await filenames('share')).toContain('share/b.txt')

    await chmod(join(webdav.root, 'a.txt'), 0o644)
    const healed = await sync(source, credentials)
    expect(healed).toMatchObject({ status: 'done', changed: 1, deleted: 1, failed: 0 })
    expect(await filenames('share')).not.toContain('share/b.txt')
  })

  it('fails with the reason when the credentials are refused', async () => {
    const source = await addSource('webdav', 'share-wrong', { url: webdav.url })
    const refused = await sync(source, { username: webdav.username, password: 'expired' })
    expect(refused).toMatchObject({ status: 'failed', seen: 0 })
    expect(refused.error).toMatch(/401/)
  })
})

describe('an S3 bucket', () => {
  it('syncs a prefix incrementally by ETag, deletions included', async () => {
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    })
    const put = (key: string, body: string) =>
      client.send(new PutObjectCommand({ Bucket: 'exports', Key: key, Body: body }))
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => put(`reports/r${i}.txt`, `Report ${i}: sales rose.`)),
    )
    await put('other/skip.txt', 'outside the prefix')
    const source = await addSource('s3', 'bucket', {
      bucket: 'exports',
      prefix: 'reports/',
      endpoint: s3.endpoint,
    })
    const credentials = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }

    const first = await sync(source, credentials)
    expect(first, first.error ?? '').toMatchObject({ status: 'done', seen: 25, added: 25, failed: 0 })

    await put('reports/r7.txt', 'Report 7: sales fell.')
    await client.send(new DeleteObjectCommand({ Bucket: 'exports', Key: 'reports/r8.txt' }))
    const again = await sync(source, credentials)
    expect(again, again.error ?? '').toMatchObject({
      status: 'done',
      seen: 24,
      changed: 1,
      unchanged: 23,
      deleted: 1,
    })
    client.destroy()
  })
})

describe('a Git repository', () => {
  it('syncs files at a ref by blob id, leaves out links out of the tree and files over the limit, and follows commits', async () => {
    const repo = join(scratch, 'manuals-repo')
    await mkdir(join(repo, 'docs'), { recursive: true })
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' })
    git('init', '-q', '-b', 'main')
    git('config', 'user.email', 'a@example.com')
    git('config', 'user.name', 'A')
    git('config', 'uploadpack.allowFilter', 'true')
    await writeFile(join(repo, 'docs', 'setup.md'), '# Setup\n\nPlug the lamp in.')
    await writeFile(join(repo, 'README.md'), '# Manuals')
    await writeFile(join(repo, 'docs', 'huge.txt'), 'x'.repeat(LIMITS.maxBytes + 1))
    execFileSync('ln', ['-s', '/etc/passwd', join(repo, 'docs', 'passwd.txt')])
    git('add', '-A')
    git('commit', '-qm', 'first')
    const source = await addSource('git', 'manuals', { url: repo, ref: 'main' })

    const first = await sync(source)
    expect(first).toMatchObject({ status: 'partial', seen: 3, added: 2, failed: 1 })
    expect(first.failures).toEqual([
      {
        key: 'docs/huge.txt',
        reason: expect.stringMatching(/more than the 200000 allowed \(UPLOAD_MAX_BYTES\): not read/),
      },
    ])
    expect(first.error).toMatch(/1 item\(s\) refused .*the rest is in sync/)
    expect(await filenames('manuals')).toEqual(['manuals/README.md', 'manuals/docs/setup.md'])

    // The file too large for good stays there: a deletion still follows (it is no read failure).
    await writeFile(join(repo, 'docs', 'setup.md'), '# Setup\n\nPlug the lamp in, then press the switch.')
    git('rm', '-q', 'README.md')
    git('add', '-A')
    git('commit', '-qm', 'second')
    const again = await sync(source)
    expect(again).toMatchObject({ status: 'partial', seen: 2, changed: 1, deleted: 1, failed: 1 })
    expect(await filenames('manuals')).toEqual(['manuals/docs/setup.md'])
  })
})

describe('a source removed while it syncs', () => {
  it('stops, and what it was bringing goes too: no document is left behind', async () => {
    const source = await addSource('webdav', 'going', { url: 'https://dav.example.com/going/' })
    // The place as a reader gives it: the source is removed (as DELETE /sources does) between two items.
    const reader: SourceReader = {
      async *list() {
        yield { key: 'one.txt', version: 'v1', content: new TextEncoder().encode('first file') }
        for (const id of (await removeSource(fixture.db.pool, source.id)) ?? [])
          await deleteDocument(fixture.db, id)
        yield { key: 'two.txt', version: 'v1', content: new TextEncoder().encode('second file') }
      },
      read: async () => new Uint8Array(),
    }
    const outcome = await syncSource({ ...fixture, pool: fixture.db.pool }, source, reader, {
      trigger: 'test',
      uploadDir: join(scratch, 'uploads'),
      maxBytes: LIMITS.maxBytes,
    })
    expect(outcome).toMatchObject({ status: 'failed', error: 'the source was removed' })
    const { rows } = await fixture.db.pool.query(`SELECT filename FROM documents WHERE collection = 'going'`)
    expect(rows).toEqual([])
  })
})

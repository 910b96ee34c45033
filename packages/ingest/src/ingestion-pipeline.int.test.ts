import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import type { Producer } from '@rag/queue'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deleteDocument, registerDocument, UploadRejectedError } from './register-document.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from './testing.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const sampleDir = new URL('../../../data/sample/', import.meta.url)
let db: TestDatabase
let producer: Producer
let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  fixture = await startIngestionFixture('ingest')
  ;({ db, producer } = fixture)
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-uploads-'))
})

afterAll(async () => {
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const deps = () => ({ pool: db.pool, producer, logger })
const options = () => ({ uploadDir, maxBytes: 1_000_000 })
const upload = (filename: string, data: Uint8Array, collection?: string) =>
  registerDocument(deps(), options(), { filename, data, collection })

async function sourcesOf(documentId: string) {
  const { rows } = await db.pool.query<{ sourceId: string; chunks: number }>(
    `SELECT c.source_id AS "sourceId", count(*)::int AS chunks FROM chunks c JOIN sections s ON s.id = c.section_id
      WHERE c.document_id = $1 GROUP BY c.source_id ORDER BY min(s.ordinal)`,
    [documentId],
  )
  return rows
}

describe('ingesting the sample documents', () => {
  it('brings every sample to ready with exactly the expected sources and chunk counts', async () => {
    const names = (await readdir(sampleDir)).sort()
    const outcomes = await Promise.all(
      names.map(async (name) => upload(name, await readFile(new URL(name, sampleDir)), 'samples')),
    )
    expect(outcomes.map((o) => o.action)).toEqual(names.map(() => 'created'))
    const byName = new Map<string, string[]>()
    for (const { document } of outcomes) {
      const done = await waitForDocument(db.pool, document.id)
      expect(done, done.error ?? '').toMatchObject({ status: 'ready', progress: 1 })
      byName.set(
        document.filename,
        (await sourcesOf(document.id)).map((s) => `${s.sourceId}×${s.chunks}`),
      )
    }
    expect(Object.fromEntries(byName)).toEqual({
      'faq.csv': ['faq.csv:r1×1', 'faq.csv:r2×1', 'faq.csv:r3×1', 'faq.csv:r4×1', 'faq.csv:r5×1'],
      'lumina-guide.pdf': [1, 2, 3, 4, 5].map((n) => `lumina-guide.pdf:p${n}×1`),
      'release-notes.docx': [
        'release-notes.docx#release-notes×1',
        'release-notes.docx#version-1-2×1',
        'release-notes.docx#bug-fixes×1',
        'release-notes.docx#version-1-1×1',
      ],
      'setup.md': [
        'setup.md#ルミナ-アプリ-セットアップガイド×1',
        'setup.md#動作環境×1',
        'setup.md#対応機種の確認×1',
        'setup.md#ペアリング×1',
        'setup.md#ペアリングできないとき×1',
        'setup.md#scheduling×1',
        // Its table's rows, each with the column names.
        'setup.md#scheduling:t1:r1×1',
        'setup.md#scheduling:t1:r2×1',
      ],
      'store-info.html': [
        'store-info.html#店舗情報×1',
        'store-info.html#定休日×1',
        'store-info.html#アクセス×1',
        'store-info.html#shipping×1',
      ],
    })
    const { rows } = await db.pool.query<{ chunkCount: number }>(
      'SELECT sum(chunk_count)::int AS "chunkCount" FROM documents WHERE collection = $1',
      ['samples'],
    )
    expect(rows[0]?.chunkCount).toBe(26)
  })

  it('stores keyword terms for every chunk, and the parent text each chunk belongs to', async () => {
    const { rows } = await db.pool.query<{ terms: string[]; parent: string; text: string }>(
      `SELECT c.terms, s.text AS parent, c.text FROM chunks c JOIN sections s ON s.id = c.section_id
        WHERE c.source_id = 'lumina-guide.pdf:p4'`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]?.terms).toEqual(expect.arrayContaining(['充電', '時間', 'usb']))
    expect(rows[0]?.parent).toContain(rows[0]?.text)
  })

  it('treats a re-upload of unchanged content as a no-op, and replaces changed content', async () => {
    const first = await upload('notes.txt', new TextEncoder().encode('first version about lamps'))
    await waitForDocument(db.pool, first.document.id)
    const again = await upload('notes.txt', new TextEncoder().encode('first version about lamps'))
    expect(again.action).toBe('unchanged')
    expect(again.document.id).toBe(first.document.id)
    const changed = await upload('notes.txt', new TextEncoder().encode('second version about batteries'))
    expect(changed.action).toBe('replaced')
    const done = await waitForDocument(db.pool, first.document.id)
    expect(done.status).toBe('ready')
    const { rows } = await db.pool.query('SELECT text FROM chunks WHERE document_id = $1', [
      first.document.id,
    ])
    expect(rows).toEqual([{ text: 'second version about batteries' }])
  })

  it('deletes a document with its chunks', async () => {
    const { document } = await upload('gone.txt', new TextEncoder().encode('short lived'))
    await waitForDocument(db.pool, document.id)
    expect(await deleteDocument({ pool: db.pool }, document.id)).toBe(true)
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM chunks WHERE document_id = $1', [
      document.id,
    ])
    expect(rows[0]?.n).toBe(0)
    expect(await deleteDocument({ pool: db.pool }, document.id)).toBe(false)
  })
})

describe('bad input', () => {
  it('rejects unsupported types, empty files, oversize files and path tricks before anything is stored', async () => {
    const reject = (name: string, data: Uint8Array, maxBytes = 1_000_000) =>
      registerDocument(deps(), { uploadDir, maxBytes }, { filename: name, data }).then(
        () => undefined,
        (e: unknown) => e as UploadRejectedError,
      )
    expect(await reject('clip.mp4', new Uint8Array([1]))).toMatchObject({ status: 415 })
    expect(await reject('empty.pdf', new Uint8Array())).toMatchObject({
      status: 400,
      message: 'empty.pdf is empty',
    })
    expect(await reject('big.txt', new Uint8Array(11), 10)).toMatchObject({ status: 413 })
    expect(await reject('../../etc/passwd', new Uint8Array([1]))).toMatchObject({ status: 415 })
    expect(await reject('..', new Uint8Array([1]))).toBeInstanceOf(UploadRejectedError)
  })

  it('marks corrupt files failed with the reason while a good file alongside becomes ready', async () => {
    const pdf = await readFile(new URL('lumina-guide.pdf', sampleDir))
    const uploads = await Promise.all([
      upload('garbage.pdf', new TextEncoder().encode('this is not a pdf at all')),
      upload('truncated.pdf', pdf.subarray(0, 2000)),
      upload('binary.csv', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1])),
      upload('bad.jsonl', new TextEncoder().encode('{"id":"a","text":"ok"}\n{broken\n')),
      upload('good.md', new TextEncoder().encode('# Good\n\nThis one works.')),
      upload('../../etc/evil.txt', new TextEncoder().encode('stored under a generated name')),
    ])
    const results = await Promise.all(uploads.map(({ document }) => waitForDocument(db.pool, document.id)))
    expect(results.map((r) => [r.filename, r.status, r.error?.replace(/:.*$/s, ':')])).toEqual([
      ['garbage.pdf', 'failed', 'parse:'],
      ['truncated.pdf', 'failed', 'parse:'],
      ['binary.csv', 'failed', 'parse:'],
      ['bad.jsonl', 'failed', 'parse:'],
      ['good.md', 'ready', undefined],
      ['evil.txt', 'ready', undefined],
    ])
    expect(results[0]?.error).toMatch(/not a PDF/)
    expect(results[2]?.error).toMatch(/binary content/)
    expect(results[3]?.error).toMatch(/line 2/)
    expect(results[5]?.storedPath.startsWith(uploadDir)).toBe(true)
  })
})

import { randomUUID } from 'node:crypto'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { insertDocument, partMoved, refreshDocumentStatus, setPartsTotal, setStage } from './documents.ts'
import { advancePart, saveParsedPart } from './parts.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('part-moved')
})
afterAll(async () => {
  await db.drop()
})

async function parsedDocument(parts: number, { total = true } = {}) {
  const version = { documentId: randomUUID(), contentHash: randomUUID() }
  await insertDocument(db.pool, {
    id: version.documentId,
    collection: 'default',
    filename: `${version.documentId}.txt`,
    contentHash: version.contentHash,
    storedPath: '/nowhere',
    sizeBytes: 1,
    sourceType: 'text',
    tags: [],
  })
  await setStage(db.pool, version, 'parsing')
  for (let part = 0; part < parts; part++) await saveParsedPart(db.pool, { ...version, part }, [])
  if (total) {
    await setPartsTotal(db.pool, version, parts)
    await refreshDocumentStatus(db.pool, version)
  }
  return version
}

const statusOf = async (documentId: string) =>
  (await db.pool.query<{ status: string }>('SELECT status FROM documents WHERE id = $1', [documentId]))
    .rows[0]?.status

it('moves the document on only when its last part leaves a stage', async () => {
  const version = await parsedDocument(3)
  expect(await statusOf(version.documentId)).toBe('chunking')
  for (const part of [0, 1]) {
    await advancePart(db.pool, { ...version, part }, 'chunked')
    await partMoved(db.pool, version, 'parsed')
    expect(await statusOf(version.documentId)).toBe('chunking')
  }
  await advancePart(db.pool, { ...version, part: 2 }, 'chunked')
  await partMoved(db.pool, version, 'parsed')
  expect(await statusOf(version.documentId)).toBe('embedding')
  // The same status the whole-document aggregate derives.
  await refreshDocumentStatus(db.pool, version)
  expect(await statusOf(version.documentId)).toBe('embedding')
})

it('leaves the status to the parser while it has not counted the parts', async () => {
  const version = await parsedDocument(1, { total: false })
  await advancePart(db.pool, { ...version, part: 0 }, 'chunked')
  await partMoved(db.pool, version, 'parsed')
  expect(await statusOf(version.documentId)).toBe('parsing')
})

it('never moves a finished document', async () => {
  const version = await parsedDocument(1)
  await db.pool.query(`UPDATE documents SET status = 'failed' WHERE id = $1`, [version.documentId])
  await advancePart(db.pool, { ...version, part: 0 }, 'chunked')
  await partMoved(db.pool, version, 'parsed')
  expect(await statusOf(version.documentId)).toBe('failed')
})

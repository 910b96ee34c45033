import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type IngestionFixture, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Dataset } from './dataset.ts'
import { ingestCorpus } from './ingest-corpus.ts'

// An evaluation's corpus goes through the real upload path and pipeline: the run waits for every
// document, names the ones that failed with why, and reuses an unchanged corpus on the next run.
let fixture: IngestionFixture
let uploadDir: string
beforeAll(async () => {
  fixture = await startIngestionFixture('ingest-corpus')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-ingest-corpus-'))
})
afterAll(async () => {
  await fixture?.close()
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
})

const text = (value: string) => new TextEncoder().encode(value)
const dataset: Dataset = {
  name: 'tiny',
  format: 'questions',
  documents: [
    {
      docId: 'warranty',
      filename: 'warranty.txt',
      data: text('The warranty lasts three years from purchase.'),
    },
    { docId: 'broken', filename: 'broken.pdf', data: text('this is not a PDF at all') },
  ],
  questions: [],
}

describe('ingestCorpus', () => {
  it('waits for every document, names the failed ones, and reuses the ones already read', async () => {
    const first = await ingestCorpus({ ...fixture, pool: fixture.db.pool }, dataset, { uploadDir })
    expect([...first.documents.values()].sort()).toEqual(['broken', 'warranty'])
    expect(first.failed).toEqual([{ docId: 'broken', error: expect.stringMatching(/\S/) }])
    expect(first.reused).toBe(false)
    // A document that failed is tried again on the next run; the ones that were read are not.
    const readable = { ...dataset, documents: dataset.documents.filter((doc) => doc.docId !== 'broken') }
    const again = await ingestCorpus({ ...fixture, pool: fixture.db.pool }, readable, { uploadDir })
    expect(again).toMatchObject({ reused: true, failed: [] })
  })
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ingestionDefaults } from '@rag/config'
import { scannedJapanesePdf } from '@rag/parsers/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { registerDocument } from './register-document.ts'
import { getDocument } from './repository/documents.ts'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from './testing.ts'

// A page OCR reads with less confidence than OCR_MIN_CONFIDENCE is not indexed as if it were text:
// it is a missing page, with the confidence in its reason. The floor is set above any reading
// here, so the mechanism is what is tested, not how well tesseract reads this machine's render.
let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  const defaults = ingestionDefaults().parsing
  fixture = await startIngestionFixture('ocr-confidence', {
    settings: { parsing: { ...defaults, ocr: { ...defaults.ocr, minConfidence: 100 } } },
  })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-ocr-confidence-'))
})
afterAll(async () => {
  await fixture?.close()
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
})

it('lists a page read below the confidence floor as missing, with its confidence, and indexes nothing of it', async () => {
  const { document } = await registerDocument(
    { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger },
    { uploadDir, maxBytes: 50e6 },
    {
      filename: 'blurred.pdf',
      data: await scannedJapanesePdf(['本製品の保証期間はお買い上げ日から2年間です。']),
    },
  )
  const done = await waitForDocument(fixture.db.pool, document.id, 300_000)
  expect(done.status).toBe('failed')
  expect(done.error).toMatch(
    /^ocr: no page could be read \(page 1: OCR could not read page 1 reliably \(confidence \d+%/,
  )
  const { rows } = await fixture.db.pool.query(
    'SELECT count(*)::int AS n FROM chunks WHERE document_id = $1',
    [document.id],
  )
  expect(rows[0]).toEqual({ n: 0 })
  const shown = await getDocument(fixture.db.pool, document.id)
  expect(shown?.missingPages?.[0]?.reason).toMatch(/confidence \d+%/)
  // The page's reading is kept too, so the confidence that kept it out can be seen beside it.
  expect(shown?.ocrReadings).toEqual([
    { page: 1, confidence: expect.any(Number), direction: expect.any(String) },
  ])
}, 300_000)

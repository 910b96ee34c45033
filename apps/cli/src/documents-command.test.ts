import { describe, expect, it } from 'vitest'
import { documentLine, missingOf } from './documents-command.ts'

describe('a document line', () => {
  it('names the pages a document is searchable without, and why the first was not read', () => {
    expect(missingOf({ missingPages: [] })).toBe('')
    expect(
      missingOf({
        missingPages: [
          { page: 3, reason: 'page 3 is 200 × 200 inches; OCR reads pages of at most 80 million pixels' },
          { page: 9, reason: 'OCR of page 9 failed' },
        ],
      }),
    ).toBe(
      '; 2 pages not read (3, 9): page 3: page 3 is 200 × 200 inches; OCR reads pages of at most 80 million pixels',
    )
  })
})

describe('rag documents', () => {
  it('names each document’s collection in a column of its own', () => {
    const base = { missingPages: [], error: null, ocrPages: null, chunkCount: 12 }
    expect(documentLine({ ...base, status: 'ready', collection: 'samples', filename: 'faq.csv' }, 7)).toBe(
      'ready     samples  faq.csv  12 chunks',
    )
    expect(documentLine({ ...base, status: 'ready', collection: 'hr', filename: 'faq.csv' }, 7)).toBe(
      'ready     hr       faq.csv  12 chunks',
    )
  })
})

import { chunkSections } from '@rag/chunking'
import type { Pool } from '@rag/db'
import { type ParsedSection, parseDocument } from '@rag/parsers'
import { expect } from 'vitest'

/** Chunking small enough that each numbered document makes several chunks. */
export const SMALL_CHUNKS = { size: 300, overlap: 60, parentMaxChars: 900 }

/** Document n of a test corpus: two paragraphs of twelve sentences, each document different. */
export function numberedDocument(n: number): string {
  const sentences = Array.from(
    { length: 12 },
    (_, i) => `Document ${n} sentence ${i} explains lamp feature number ${(n * 13 + i) % 97} in some detail.`,
  )
  return `${sentences.slice(0, 6).join(' ')}\n\n${sentences.slice(6).join(' ')}\n`
}

/** How many chunks document n must end with, by the same parser and chunker the workers run. */
export async function expectedChunks(n: number, chunking = SMALL_CHUNKS): Promise<number> {
  const sections: ParsedSection[] = []
  for await (const section of parseDocument(
    new TextEncoder().encode(numberedDocument(n)),
    `doc-${n}.txt`,
    'text',
    { maxSectionChars: chunking.parentMaxChars },
  ))
    sections.push(section)
  return chunkSections(sections, chunking).chunks.length
}

/**
 * Every numbered document (of `collection`, or all) is ready and holds exactly the chunks it
 * should, none twice (stored rows, the recorded count and distinct chunks all agree). Returns how
 * many documents there are.
 */
export async function expectExactChunks(pool: Pool, collection: string | null): Promise<number> {
  const { rows } = await pool.query<{
    filename: string
    status: string
    /** Why a document failed: shown when one did. */
    error: string | null
    chunkCount: number
    stored: number
    distinct: number
  }>(
    `SELECT d.filename, d.status, d.error, d.chunk_count AS "chunkCount",
            (SELECT count(*)::int FROM chunks c WHERE c.document_id = d.id) AS stored,
            (SELECT count(DISTINCT (c.source_id, c.text))::int FROM chunks c WHERE c.document_id = d.id) AS distinct
       FROM documents d WHERE $1::text IS NULL OR d.collection = $1 ORDER BY d.filename`,
    [collection],
  )
  expect(rows.filter((row) => row.status !== 'ready')).toEqual([])
  for (const row of rows) {
    const expected = await expectedChunks(Number(row.filename.replace(/\D/g, '')))
    expect([row.filename, row.chunkCount, row.stored, row.distinct]).toEqual([
      row.filename,
      expected,
      expected,
      expected,
    ])
  }
  return rows.length
}

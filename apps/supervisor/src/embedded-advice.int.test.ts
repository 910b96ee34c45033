import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adviseOnEmbeddedSize, EMBEDDED_CHUNK_ADVICE } from './embedded-advice.ts'

let db: TestDatabase
beforeAll(async () => {
  db = await createTestDatabase('embedded-advice')
})
afterAll(() => db?.drop())

describe('the advice to move off the embedded database', () => {
  it('is given once the corpus passes the size it serves well, and not before', async () => {
    const lines: { level: number; msg: string }[] = []
    const logger = createLogger({
      name: 'test',
      destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
    })
    expect(await adviseOnEmbeddedSize(db.pool, logger)).toBe(0)
    expect(lines).toEqual([])
    await db.pool.query("INSERT INTO corpus_stats (collection, chunks) VALUES ('a', $1), ('b', 2)", [
      EMBEDDED_CHUNK_ADVICE - 1,
    ])
    await adviseOnEmbeddedSize(db.pool, logger)
    expect(lines).toHaveLength(1)
    expect(lines[0]?.level).toBe(40)
    expect(lines[0]?.msg).toMatch(/set DATABASE_URL to a Postgres with pgvector/)
  })
})

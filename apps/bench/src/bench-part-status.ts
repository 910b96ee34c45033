import { randomUUID } from 'node:crypto'
import type { BenchConfig } from '@rag/config'
import { createPool, migrate, quoteIdentifier } from '@rag/db'
import {
  advancePart,
  insertDocument,
  partMoved,
  refreshDocumentStatus,
  saveParsedPart,
  setPartsTotal,
  setStage,
} from '@rag/ingest/testing'
import { loadAverage } from './machine-load.ts'

type Pool = ReturnType<typeof createPool>
const STEPS = [
  { from: 'parsed', to: 'chunked' },
  { from: 'chunked', to: 'embedded' },
  { from: 'embedded', to: 'stored' },
] as const

async function parsedDocument(pool: Pool, parts: number) {
  const version = { documentId: randomUUID(), contentHash: randomUUID() }
  await insertDocument(pool, {
    id: version.documentId,
    collection: 'default',
    filename: `${version.documentId}.pdf`,
    contentHash: version.contentHash,
    storedPath: '/bench',
    sizeBytes: 1,
    sourceType: 'pdf',
    tags: [],
  })
  await setStage(pool, version, 'parsing')
  for (let part = 0; part < parts; part++) await saveParsedPart(pool, { ...version, part }, [])
  await setPartsTotal(pool, version, parts)
  await refreshDocumentStatus(pool, version)
  return version
}

/** Every part through chunk, embed and store with one protocol's status bookkeeping; milliseconds. */
async function walk(pool: Pool, parts: number, protocol: 'aggregate' | 'incremental') {
  const version = await parsedDocument(pool, parts)
  const started = performance.now()
  for (const { from, to } of STEPS) {
    for (let part = 0; part < parts; part++) {
      // Before: the whole document's status derived before and after each step of each part.
      if (protocol === 'aggregate') await refreshDocumentStatus(pool, version)
      await advancePart(pool, { ...version, part }, to)
      if (protocol === 'aggregate') await refreshDocumentStatus(pool, version)
      else await partMoved(pool, version, from)
    }
  }
  return performance.now() - started
}

/**
 * pnpm bench part-status [PARTS]: the bookkeeping of a PARTS-page scan's part steps (chunk, embed,
 * store), the step's own work left out: the whole-document status aggregate before and after
 * every step (before) against one incremental update per step (now), same database, same run.
 */
export async function benchPartStatus(config: BenchConfig, args: string[]) {
  const parts = Number(args[0] ?? 1000)
  const schema = `bench_part_status_${randomUUID().slice(0, 6)}`
  const pool = createPool({ url: config.databaseUrl, schema, max: 2 })
  await migrate(pool, { schema, embedding: null })
  try {
    console.log(`part steps of a ${parts}-part document (load ${loadAverage()})`)
    for (const protocol of ['aggregate', 'incremental', 'aggregate', 'incremental'] as const) {
      const ms = await walk(pool, parts, protocol)
      const statements = protocol === 'aggregate' ? 3 : 2
      console.log(
        `${protocol.padEnd(11)} ${(ms / 1000).toFixed(2)} s for ${parts * 3} steps: ${(ms / (parts * 3)).toFixed(2)} ms a step, ${statements} statements a step`,
      )
    }
    console.log(`load ${loadAverage()}`)
  } finally {
    await pool.query(`DROP SCHEMA ${quoteIdentifier(schema)} CASCADE`)
    await pool.end()
  }
}

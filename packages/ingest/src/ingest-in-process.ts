import { readFile } from 'node:fs/promises'
import { type ChunkOptions, chunkSections } from '@rag/chunking'
import { type Pool, withTransaction } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { type ParsedSection, parseDocument } from '@rag/parsers'
import { getDocument } from './documents.ts'
import { fillEmbeddingCache } from './embedding-cache.ts'
import { finalizeDocument } from './finalize-document.ts'
import { PART_ORDINAL_SPAN, saveParsedPart } from './parts.ts'
import { prepareChunkRows, storePart } from './store-part.ts'

/**
 * The same parse → chunk → embed → store work as the pipeline, in this process and without
 * queues: the baseline `pnpm bench ingest` compares the pipeline with.
 */
export async function ingestInProcess(
  pool: Pool,
  documentId: string,
  {
    embedder,
    chunking,
    sectionsPerPart,
  }: { embedder: Embedder | null; chunking: Omit<ChunkOptions, 'firstOrdinal'>; sectionsPerPart: number },
): Promise<number> {
  const document = await getDocument(pool, documentId)
  if (!document) throw new Error(`no document ${documentId}`)
  const data = await readFile(document.storedPath)
  const { id, contentHash } = document
  let part = 0
  let chunks = 0
  let batch: ParsedSection[] = []
  const flush = async () => {
    await saveParsedPart(pool, id, contentHash, part, batch)
    const chunked = chunkSections(batch, { ...chunking, firstOrdinal: part * PART_ORDINAL_SPAN })
    if (embedder)
      await fillEmbeddingCache(
        pool,
        embedder,
        chunked.chunks.map((chunk) => chunk.text),
      )
    const current = part
    const rows = prepareChunkRows(chunked)
    chunks += await withTransaction(pool, (client) =>
      storePart(client, {
        documentId: id,
        contentHash,
        part: current,
        chunked,
        rows,
        embeddingModel: embedder?.model ?? null,
      }),
    )
    part += 1
    batch = []
  }
  for await (const section of parseDocument(data, document.filename, document.sourceType)) {
    batch.push(section)
    if (batch.length >= sectionsPerPart) await flush()
  }
  if (batch.length > 0) await flush()
  await pool.query('UPDATE documents SET parts_total = $2 WHERE id = $1', [id, part])
  await finalizeDocument(pool, id, contentHash)
  return chunks
}

import type { PoolClient } from '@rag/db'
import { tokenize } from '@rag/keyword'
import { textHash } from '../text-hash.ts'
import type { PartRef } from './document-version.ts'
import { advancePart, type ChunkedPart, PART_ORDINAL_SPAN } from './parts.ts'

/**
 * The chunk rows of a part with their keyword terms: tokenizing is CPU work, done before the
 * transaction that stores them opens (never while it holds locks).
 */
export function prepareChunkRows(chunked: ChunkedPart): string {
  return JSON.stringify(
    chunked.chunks.map((chunk) => {
      const terms = tokenize(chunk.text)
      return { ...chunk, textHash: textHash(chunk.text), terms, termCount: terms.length }
    }),
  )
}

/**
 * Writes one part's parents, chunks, keyword terms and vectors (from the embedding cache) inside
 * the caller's transaction, first removing whatever an earlier attempt of the same part stored,
 * so a retry never duplicates a chunk.
 */
export async function storePart(
  client: PoolClient,
  ref: PartRef,
  {
    chunked,
    rows,
    embeddingModel,
  }: {
    chunked: ChunkedPart
    /** From prepareChunkRows, made before the transaction. */
    rows: string
    embeddingModel: string | null
  },
): Promise<number> {
  const { documentId, contentHash, part } = ref
  const { parents, chunks } = chunked
  await client.query(
    'DELETE FROM sections WHERE document_id = $1 AND content_hash = $2 AND ordinal >= $3 AND ordinal < $4',
    [documentId, contentHash, part * PART_ORDINAL_SPAN, (part + 1) * PART_ORDINAL_SPAN],
  )
  await client.query(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, heading, text)
     SELECT $1, $2, * FROM unnest($3::int[], $4::text[], $5::text[], $6::text[])`,
    [
      documentId,
      contentHash,
      parents.map((p) => p.ordinal),
      parents.map((p) => p.sourceId),
      parents.map((p) => p.heading),
      parents.map((p) => p.text),
    ],
  )
  const vector = embeddingModel
    ? {
        columns: ', embedding, embedding_status',
        values: `, cache.embedding, CASE WHEN cache.embedding IS NULL THEN 'pending' ELSE 'done' END`,
        join: 'LEFT JOIN embedding_cache cache ON cache.model = $4 AND cache.text_hash = t."textHash"',
      }
    : { columns: '', values: '', join: '' }
  await client.query(
    `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count${vector.columns})
     SELECT $1, $2, s.id, t."chunkIndex", t."sourceId", t.text, t."textHash", t.terms, t."termCount"${vector.values}
       FROM jsonb_to_recordset($3::jsonb) AS t("parentOrdinal" int, "chunkIndex" int, "sourceId" text, text text,
                                                "textHash" text, terms text[], "termCount" int)
       JOIN sections s ON s.document_id = $1 AND s.content_hash = $2 AND s.ordinal = t."parentOrdinal"
       ${vector.join}`,
    embeddingModel ? [documentId, contentHash, rows, embeddingModel] : [documentId, contentHash, rows],
  )
  await advancePart(client, ref, 'stored', { chunked: null })
  return chunks.length
}

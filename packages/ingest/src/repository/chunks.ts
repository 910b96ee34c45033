import { indexedText } from '@rag/chunking'
import type { PoolClient } from '@rag/db'
import { analyzeText } from '@rag/keyword'
import { textHash } from '../text-hash.ts'
import type { PartRef } from './document-version.ts'
import { advancePart, type ChunkedPart, PART_ORDINAL_SPAN } from './parts.ts'

/** A part's rows as JSON for the statements that store them (see preparePartRows). */
export interface PreparedPartRows {
  parents: string
  chunks: string
}

const counts = (terms: string[]) => {
  const tf: Record<string, number> = {}
  for (const term of terms) tf[term] = (tf[term] ?? 0) + 1
  return tf
}

/**
 * The parent and chunk rows of a part with their keyword terms (a chunk's words and distinct
 * character pairs; a parent's word counts): analysing text is CPU work, done before the
 * transaction that stores them opens (never while it holds locks).
 */
export function preparePartRows(chunked: ChunkedPart): PreparedPartRows {
  return {
    parents: JSON.stringify(
      chunked.parents.map((parent) => {
        const { words } = analyzeText(parent.text)
        return { ...parent, termTf: counts(words), termCount: words.length }
      }),
    ),
    chunks: JSON.stringify(
      chunked.chunks.map((chunk) => {
        // Indexed and embedded with its heading path (the cache is keyed by what was embedded).
        const indexed = indexedText(chunk)
        const { words, bigrams } = analyzeText(indexed)
        return {
          ...chunk,
          textHash: textHash(indexed),
          terms: words,
          termCount: words.length,
          bigrams: [...new Set(bigrams)].sort(),
          bigramCount: bigrams.length,
        }
      }),
    ),
  }
}

/**
 * Writes one part's parents, chunks, keyword terms and vectors (from the embedding cache) inside
 * the caller's transaction, first removing whatever an earlier attempt of the same part stored,
 * so a retry never duplicates a chunk. Null, storing nothing, when the version failed or was replaced.
 */
export async function storePart(
  client: PoolClient,
  ref: PartRef,
  {
    chunked,
    rows,
    embeddingCacheKey,
  }: {
    chunked: ChunkedPart
    /** From preparePartRows, made before the transaction. */
    rows: PreparedPartRows
    embeddingCacheKey: string | null
  },
): Promise<number | null> {
  const { documentId, contentHash, part } = ref
  const { chunks } = chunked
  // Held shared until commit: a failure of the document (markFailed) waits for this part, and a
  // part stored after it finds the document failed and stores nothing.
  const { rowCount } = await client.query(
    `SELECT 1 FROM documents WHERE id = $1 AND content_hash = $2 AND status <> 'failed' FOR SHARE`,
    [documentId, contentHash],
  )
  if (!rowCount) return null
  await client.query(
    'DELETE FROM sections WHERE document_id = $1 AND content_hash = $2 AND ordinal >= $3 AND ordinal < $4',
    [documentId, contentHash, part * PART_ORDINAL_SPAN, (part + 1) * PART_ORDINAL_SPAN],
  )
  await client.query(
    `INSERT INTO sections (document_id, content_hash, ordinal, source_id, heading, text, term_tf, term_count, ocr,
                           line_from, line_to)
     SELECT $1, $2, p.ordinal, p."sourceId", p.heading, p.text, p."termTf", p."termCount", coalesce(p.ocr, false),
            (p.lines->>'from')::int, (p.lines->>'to')::int
       FROM jsonb_to_recordset($3::jsonb) AS p(ordinal int, "sourceId" text, heading text, text text,
                                               "termTf" jsonb, "termCount" int, ocr boolean, lines jsonb)`,
    [documentId, contentHash, rows.parents],
  )
  const vector = embeddingCacheKey
    ? {
        columns: ', embedding, embedding_status',
        values: `, cache.embedding, CASE WHEN cache.embedding IS NULL THEN 'pending' ELSE 'done' END`,
        join: 'LEFT JOIN embedding_cache cache ON cache.model = $4 AND cache.text_hash = t."textHash"',
      }
    : { columns: '', values: '', join: '' }
  await client.query(
    `INSERT INTO chunks (document_id, content_hash, section_id, chunk_index, source_id, text, text_hash, terms, term_count,
                         bigrams, bigram_count, context, regions${vector.columns})
     SELECT $1, $2, s.id, t."chunkIndex", t."sourceId", t.text, t."textHash", t.terms, t."termCount",
            t.bigrams, t."bigramCount", t.context, t.regions${vector.values}
       FROM jsonb_to_recordset($3::jsonb) AS t("parentOrdinal" int, "chunkIndex" int, "sourceId" text, text text,
                                                "textHash" text, terms text[], "termCount" int, bigrams text[],
                                                "bigramCount" int, context text, regions jsonb)
       JOIN sections s ON s.document_id = $1 AND s.content_hash = $2 AND s.ordinal = t."parentOrdinal"
       ${vector.join}`,
    embeddingCacheKey
      ? [documentId, contentHash, rows.chunks, embeddingCacheKey]
      : [documentId, contentHash, rows.chunks],
  )
  await advancePart(client, ref, 'stored', { chunked: null })
  return chunks.length
}

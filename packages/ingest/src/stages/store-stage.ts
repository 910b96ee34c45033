import { withTransaction } from '@rag/db'
import { tokenize } from '@rag/keyword'
import type { JobHandler, storeJob } from '@rag/queue'
import { currentDocument, setStage } from '../documents.ts'
import { finalizeDocument } from '../finalize-document.ts'
import type { IngestDeps } from '../ingest-deps.ts'
import { advancePart, getPart, PART_ORDINAL_SPAN } from '../parts.ts'
import { textHash } from '../text-hash.ts'
import { failDocumentOnFinalError } from './fail-document-on-final-error.ts'

/**
 * ingest.store: a part's parents, chunks, vectors (from the cache) and keyword terms, in one
 * transaction that first removes whatever an earlier attempt of the same part stored, so a retry
 * never duplicates a chunk. The last part stored makes the document ready.
 */
export function createStoreHandler(
  deps: IngestDeps,
  { embeddingModel }: { embeddingModel: string | null },
): JobHandler<typeof storeJob.payload> {
  return async (payload, context) =>
    failDocumentOnFinalError(deps.pool, payload, context, 'store', async () => {
      const { documentId, contentHash, part } = payload
      if (!(await currentDocument(deps.pool, documentId, contentHash))) return { skipped: 'document gone' }
      const record = await getPart(deps.pool, documentId, contentHash, part)
      if (!record) return { skipped: 'part gone' }
      let chunks = 0
      if (record.stage === 'embedded' && record.chunked) {
        await setStage(deps.pool, documentId, contentHash, 'storing')
        const { parents, chunks: parts } = record.chunked
        chunks = parts.length
        await withTransaction(deps.pool, async (client) => {
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
          const rows = JSON.stringify(
            parts.map((chunk) => {
              const terms = tokenize(chunk.text)
              return { ...chunk, textHash: textHash(chunk.text), terms, termCount: terms.length }
            }),
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
            embeddingModel
              ? [documentId, contentHash, rows, embeddingModel]
              : [documentId, contentHash, rows],
          )
          await advancePart(client, documentId, contentHash, part, 'stored', { chunked: null })
        })
      }
      const ready = await finalizeDocument(deps.pool, documentId, contentHash)
      await context.progress(1)
      return { part, chunks, ready }
    })
}

import type { Retriever } from '@rag/api-contract/enums'
import type { TextRegion } from '@rag/chunking'
import type { Pool } from '@rag/db'
import type { RankedChunk, RetrievalRanks } from './ranked-chunk.ts'

export interface SearchHit {
  rank: number
  chunkId: string
  /** What to cite: guide.pdf:p3, faq.csv:r12, setup.md#pairing. */
  sourceId: string
  documentId: string
  /** The document's file name. */
  title: string
  /** The collection the document is in: the same file in two collections is two hits. */
  collection: string
  score: number
  /** The matched chunk. */
  text: string
  parentId: string
  heading: string | null
  /** The parent section around the chunk: what generation reads. */
  parentText: string
  /**
   * The retrievers that found it within their depth: a passage only the embedder found shares no
   * words with the question to be judged by (answerability).
   */
  foundBy: Retriever[]
  /** Where each retriever ranked it, and the fused ranking. */
  ranks: RetrievalRanks
  /** Where the chunk stands on its pages (empty for formats without pages). */
  regions: TextRegion[]
  /** The lines of a text file its section spans (null for formats without lines). */
  lines: { from: number; to: number } | null
}

export type { Retriever }

/** Chunk ids in ranked order → hits with their text, source and parent section, same order. */
export async function loadHits(pool: Pool, ranked: RankedChunk[]): Promise<SearchHit[]> {
  if (ranked.length === 0) return []
  const { rows } = await pool.query<Omit<SearchHit, 'rank' | 'score'>>(
    `SELECT ch.id::text AS "chunkId", ch.source_id AS "sourceId", ch.document_id::text AS "documentId",
            d.filename AS title, d.collection, ch.text, s.id::text AS "parentId", s.heading, s.text AS "parentText",
            coalesce(ch.regions, '[]'::jsonb) AS regions,
            CASE WHEN s.line_from IS NULL THEN NULL ELSE json_build_object('from', s.line_from, 'to', s.line_to) END AS lines
       FROM chunks ch JOIN sections s ON s.id = ch.section_id JOIN documents d ON d.id = ch.document_id
      WHERE ch.id = ANY($1::bigint[])`,
    [ranked.map((item) => item.chunkId)],
  )
  const byId = new Map(rows.map((row) => [row.chunkId, row]))
  return ranked.flatMap((item, index) => {
    const row = byId.get(item.chunkId)
    return row
      ? [
          {
            ...row,
            rank: index + 1,
            score: item.score,
            foundBy: item.foundBy ?? [],
            ranks: { ...item.ranks, fused: index + 1 },
          },
        ]
      : []
  })
}

/**
 * Small-to-large: several chunks of one parent section are one passage for generation. Keeps the
 * best-ranked chunk of each parent, in order, up to `limit`, and renumbers the ranks.
 */
export function onePerParent(hits: SearchHit[], limit: number): SearchHit[] {
  const seen = new Set<string>()
  const kept: SearchHit[] = []
  for (const hit of hits) {
    if (seen.has(hit.parentId)) continue
    seen.add(hit.parentId)
    kept.push({ ...hit, rank: kept.length + 1 })
    if (kept.length === limit) break
  }
  return kept
}

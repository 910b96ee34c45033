import type { Pool } from '@rag/db'

/** A question that cited a passage: what the inspector lists under a chunk. */
export interface CitingQuestion {
  questionId: string
  question: string
  askedAt: string
  refused: boolean
}

/**
 * The latest questions (at most `perChunk` each) whose answers cite each chunk, still kept (not
 * expired); `owner` limits them to one asker's (a reader sees only their own questions).
 */
export async function questionsCiting(
  pool: Pool,
  chunkIds: readonly string[],
  { owner, perChunk = 3 }: { owner: string | null; perChunk?: number },
): Promise<Map<string, CitingQuestion[]>> {
  const byChunk = new Map<string, CitingQuestion[]>()
  if (chunkIds.length === 0) return byChunk
  const { rows } = await pool.query<CitingQuestion & { chunkId: string }>(
    `SELECT "chunkId", "questionId", question, "askedAt", refused FROM (
       SELECT source->>'chunkId' AS "chunkId", q.id::text AS "questionId", q.question,
              to_char(q.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "askedAt",
              coalesce(q.refused, false) AS refused,
              row_number() OVER (PARTITION BY source->>'chunkId' ORDER BY q.created_at DESC) AS n
         FROM questions q CROSS JOIN LATERAL jsonb_array_elements(q.sources) AS source
        WHERE q.status = 'done' AND q.expires_at > now()
          AND source->>'chunkId' = ANY($1::text[])
          AND ($2::text IS NULL OR q.owner = $2)
     ) cited WHERE n <= $3
     ORDER BY "askedAt" DESC`,
    [chunkIds, owner, perChunk],
  )
  for (const { chunkId, ...question } of rows)
    byChunk.set(chunkId, [...(byChunk.get(chunkId) ?? []), question])
  return byChunk
}

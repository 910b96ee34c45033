import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import { SEARCH_MODES, search } from '@rag/retrieval'
import { Hono } from 'hono'
import { z } from 'zod'
import { HttpError } from '../http-error.ts'

export interface SearchRouteDeps {
  pool: Pool
  /** The query embedder, or null when the model is off or unavailable (search degrades to keyword). */
  getEmbedder: () => Promise<Embedder | null>
  retrieval: RetrievalSection
}

const query = z
  .object({
    q: z.string().trim().min(1, 'must not be empty').max(2000, 'must be at most 2000 characters'),
    mode: z.enum(SEARCH_MODES).default('hybrid'),
    k: z.coerce.number().int().min(1).max(50).optional(),
    collection: z.string().min(1).max(200).optional(),
    parents: z.enum(['true', 'false']).default('true'),
  })
  .strict()

/** GET /search?q=…&mode=hybrid|keyword|vector&k=5&collection=…: ranked passages, no generation. */
export function searchRoutes(deps: SearchRouteDeps) {
  return new Hono().get('/search', async (c) => {
    const parsed = query.safeParse(c.req.query())
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = issue?.path.join('.') || (issue && 'keys' in issue ? String(issue.keys) : '')
      throw new HttpError(400, `invalid query parameter ${field}: ${issue?.message}`)
    }
    const { q, mode, k, collection, parents } = parsed.data
    const result = await search(
      { pool: deps.pool, embedder: await deps.getEmbedder() },
      {
        query: q,
        mode,
        limit: k ?? deps.retrieval.searchK,
        searchK: deps.retrieval.searchK,
        alpha: deps.retrieval.fusionAlpha,
        rrfK: deps.retrieval.rrfK,
        k1: deps.retrieval.bm25K1,
        b: deps.retrieval.bm25B,
        collection,
        parents: parents === 'true',
      },
    )
    return c.json({ query: q, mode, ...result })
  })
}

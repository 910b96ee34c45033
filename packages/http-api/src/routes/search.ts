import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import { searchResultSchema } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { PlatformMetrics } from '@rag/metrics'
import { SEARCH_MODES, search } from '@rag/retrieval'
import { commonErrors } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

export interface SearchRouteDeps {
  pool: Pool
  /** The query embedder, or null when the model is off or unavailable (search degrades to keyword). */
  getEmbedder: () => Promise<Embedder | null>
  retrieval: RetrievalSection
  /** Search latency by mode is recorded here. */
  metrics?: Pick<PlatformMetrics, 'searchDuration'>
}

const searchQuery = z
  .object({
    q: z
      .string('is required')
      .trim()
      .min(1, 'must not be empty')
      .max(2000, 'must be at most 2000 characters')
      .openapi({ description: 'What to look for', example: '保証期間' }),
    mode: z.enum(SEARCH_MODES).default('hybrid').openapi({ description: 'Retrievers to use' }),
    k: z.coerce
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: 'Hits wanted (default SEARCH_K)' }),
    collection: z.string().min(1).max(200).optional(),
    parents: z
      .enum(['true', 'false'])
      .default('true')
      .openapi({ description: 'Group chunks by parent section (small-to-large)' }),
  })
  .strict()

const searchRoute = createRoute({
  method: 'get',
  path: '/search',
  operationId: 'search',
  tags: ['search'],
  summary: 'Ranked passages for a query, no generation',
  request: { query: searchQuery },
  responses: {
    200: { description: 'Hits, best first', content: { 'application/json': { schema: searchResultSchema } } },
    ...commonErrors,
  },
})

/** GET /search?q=…&mode=hybrid|keyword|vector&k=5&collection=…: ranked passages, no generation. */
export function searchRoutes(deps: SearchRouteDeps) {
  return new OpenAPIHono({ defaultHook: validationHook }).openapi(searchRoute, async (c) => {
    const { q, mode, k, collection, parents } = c.req.valid('query')
    const end = deps.metrics?.searchDuration.startTimer({ mode })
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
    end?.()
    return c.json({ query: q, mode, ...result }, 200)
  })
}

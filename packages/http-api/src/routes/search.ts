import { OpenAPIHono } from '@hono/zod-openapi'
import { searchQuerySchema, searchResultSchema } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool, ReadReplica } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import type { PlatformMetrics } from '@rag/metrics'
import { rankingSettings, type SynonymSource, search, synonymSource } from '@rag/retrieval'
import { principalOf } from '../access/api-key.ts'
import { grantedCollectionIfNamed } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { commonErrors, unknownCollectionError } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

export interface SearchRouteDeps {
  pool: Pool
  /** A read replica for searches (DATABASE_READ_URL); absent: the primary. */
  reads?: Pick<ReadReplica, 'choose'>
  /** The query embedder, or null when the model is off or unavailable (search degrades to keyword). */
  getEmbedder: () => Promise<Embedder | null>
  retrieval: RetrievalSection
  /** Search latency by mode is recorded here. */
  metrics?: Pick<PlatformMetrics, 'searchDuration'>
  /** Synonyms searched through; by default the configured ones (SYNONYMS), loaded on first use. */
  synonyms?: SynonymSource
}

const searchRoute = defineRoute(
  {
    method: 'get',
    path: '/search',
    operationId: 'search',
    tags: ['search'],
    summary: 'Ranked passages for a query, no generation',
    request: { query: searchQuerySchema },
    responses: {
      200: {
        description: 'Hits, best first',
        content: { 'application/json': { schema: searchResultSchema } },
      },
      ...commonErrors,
      ...unknownCollectionError,
    },
  },
  { role: 'reader' },
)

/** GET /search?q=…&mode=hybrid|keyword|vector&k=5&collection=…: ranked passages, no generation. */
export function searchRoutes(deps: SearchRouteDeps) {
  const synonyms = deps.synonyms ?? synonymSource(deps.pool, deps.retrieval.synonyms)
  return new OpenAPIHono({ defaultHook: validationHook }).openapi(searchRoute, async (c) => {
    const { q, mode, k, collection, parents } = c.req.valid('query')
    const end = deps.metrics?.searchDuration.startTimer({ mode })
    // A search reads only: on the replica when it has caught up (DATABASE_READ_URL).
    const pool = deps.reads ? (await deps.reads.choose()).pool : deps.pool
    await grantedCollectionIfNamed(c, pool, collection)
    // The caller's grants, applied inside the retrieval SQL.
    const within = principalOf(c).collections
    const result = await search(
      {
        pool,
        embedder: await deps.getEmbedder(),
        synonyms: await synonyms.forSearch({ collection, within }),
      },
      {
        query: q,
        mode,
        limit: k ?? deps.retrieval.searchK,
        ...rankingSettings(deps.retrieval),
        collection,
        within,
        parents: parents === 'true',
      },
    )
    end?.()
    return c.json({ query: q, mode, ...result }, 200)
  })
}

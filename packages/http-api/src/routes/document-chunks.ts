import { OpenAPIHono, z } from '@hono/zod-openapi'
import { hasRole } from '@rag/access'
import { documentChunksPageSchema } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { documentChunks } from '@rag/ingest'
import { questionsCiting } from '@rag/questions'
import { keyOwner, principalOf } from '../access/api-key.ts'
import { defineRoute } from '../access/route-policy.ts'
import { jsonResponse, readErrors, uuidParam } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import { visibleDocument } from './visible-document.ts'

const chunksRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}/chunks',
    operationId: 'listDocumentChunks',
    tags: ['documents'],
    summary:
      'How a document was cut (the inspector): its chunks in order with their heading paths, regions on the page and the latest questions citing each; searchable, a page at a time',
    request: {
      params: z.object({ id: uuidParam('id', 'The document') }),
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
        q: z.string().trim().min(1).max(200).optional().openapi({
          description: 'Only chunks whose text or heading holds this (case-insensitive)',
        }),
        page: z.coerce.number().int().min(1).max(1_000_000).optional().openapi({
          description: 'Only chunks with a region on this 1-based page (PDFs and scans)',
        }),
      }),
    },
    responses: {
      200: jsonResponse('The chunks in reading order', documentChunksPageSchema),
      ...readErrors('No such document for this key'),
    },
  },
  { role: 'reader' },
)

/** The document inspector's data: the chunks, and who asked what of them. */
export function documentChunkRoutes(deps: { pool: Pool }) {
  return new OpenAPIHono({ defaultHook: validationHook }).openapi(chunksRoute, async (c) => {
    const { id } = c.req.valid('param')
    const { limit, offset, q, page } = c.req.valid('query')
    const document = await visibleDocument(deps, c, id)
    const { chunks, total } = await documentChunks(deps.pool, id, { limit, offset, query: q, page })
    // Editors and admins review everyone's questions; a reader sees their own.
    const owner = hasRole(principalOf(c).role, 'editor') ? null : keyOwner(c)
    const citing = await questionsCiting(
      deps.pool,
      chunks.map((chunk) => chunk.chunkId),
      { owner },
    )
    const following = offset + chunks.length
    const more = new URLSearchParams({
      offset: String(following),
      limit: String(limit),
      ...(q ? { q } : {}),
      ...(page ? { page: String(page) } : {}),
    })
    return c.json(
      {
        id,
        filename: document.filename,
        total,
        offset,
        next: following < total ? `/documents/${id}/chunks?${more}` : null,
        chunks: chunks.map(({ chunkId, ...chunk }) => ({ ...chunk, citedBy: citing.get(chunkId) ?? [] })),
      },
      200,
    )
  })
}

import { OpenAPIHono } from '@hono/zod-openapi'
import { createCollection, listCollections } from '@rag/access'
import { collectionListSchema, collectionSchema, createCollectionRequestSchema } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  errorResponse,
  jsonBody,
  jsonChangeErrors,
  jsonResponse,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/collections',
    operationId: 'listCollections',
    tags: ['access'],
    summary: 'The collections this key may read, each with how many documents it holds',
    responses: { 200: jsonResponse('Collections, by name', collectionListSchema), ...commonErrors },
  },
  { role: 'reader' },
)
const createRoute = defineRoute(
  {
    method: 'post',
    path: '/collections',
    operationId: 'createCollection',
    tags: ['access'],
    summary:
      'Begin a collection before its first document (admin), so keys, sources and synonyms can name it',
    request: { body: jsonBody(createCollectionRequestSchema) },
    responses: {
      201: jsonResponse('The collection, new', collectionSchema),
      ...jsonChangeErrors,
      409: errorResponse('A collection of that name exists'),
    },
  },
  { role: 'admin', audit: 'collection.create' },
)

/** GET and POST /collections: what a key may name wherever a request takes a collection. */
export function collectionRoutes(deps: { pool: Pool }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(listRoute, async (c) =>
      c.json({ collections: await listCollections(deps.pool, principalOf(c).collections) }, 200),
    )
    .openapi(createRoute, async (c) => {
      const { name } = c.req.valid('json')
      auditCollection(c, name)
      if (!(await createCollection(deps.pool, name)))
        throw new HttpError(409, `a collection named ${JSON.stringify(name)} exists`)
      const [created] = await listCollections(deps.pool, [name])
      c.header('Location', `/collections/${encodeURIComponent(name)}`)
      return c.json(created ?? { name, createdAt: new Date().toISOString(), documents: 0 }, 201)
    })
}

import { OpenAPIHono } from '@hono/zod-openapi'
import { collectionSynonymsRequestSchema, collectionSynonymsSchema } from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { SynonymFileError } from '@rag/keyword'
import { deleteCollectionSynonyms, readCollectionSynonyms, saveCollectionSynonyms } from '@rag/retrieval'
import { principalOf } from '../access/api-key.ts'
import { collectionParams, grantedCollection } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  jsonBody,
  jsonResponse,
  jsonWriteErrors,
  readErrors,
  writeErrors,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const answer = (description: string) => jsonResponse(description, collectionSynonymsSchema)

const readRoute = defineRoute(
  {
    method: 'get',
    path: '/collections/{name}/synonyms',
    operationId: 'getCollectionSynonyms',
    tags: ['search'],
    summary: "A collection's own synonyms (its jargon), searched beside Sudachi's dictionary",
    request: { params: collectionParams },
    responses: {
      200: answer('The rules (empty when it has none)'),
      ...readErrors('No such collection for this key'),
    },
  },
  { role: 'reader' },
)
const saveRoute = defineRoute(
  {
    method: 'put',
    path: '/collections/{name}/synonyms',
    operationId: 'setCollectionSynonyms',
    tags: ['search'],
    summary: "Replace a collection's synonyms (editor): used from the next question on, no re-indexing",
    request: {
      params: collectionParams,
      body: jsonBody(collectionSynonymsRequestSchema),
    },
    responses: {
      200: answer('The rules as stored'),
      ...jsonWriteErrors('No such collection for this key'),
    },
  },
  { role: 'editor', audit: 'synonyms.change' },
)
const deleteRoute = defineRoute(
  {
    method: 'delete',
    path: '/collections/{name}/synonyms',
    operationId: 'deleteCollectionSynonyms',
    tags: ['search'],
    summary: "Remove a collection's own synonyms (editor)",
    request: { params: collectionParams },
    responses: {
      200: answer('What the collection has now (no rules)'),
      ...writeErrors('No such collection for this key'),
    },
  },
  { role: 'editor', audit: 'synonyms.change' },
)

const none = (collection: string) => ({
  collection,
  rules: '',
  ruleCount: 0,
  updatedAt: null,
  updatedBy: null,
})

/** GET, PUT and DELETE /collections/{name}/synonyms: a team's own synonyms for its collection. */
export function collectionSynonymRoutes(deps: { pool: Pool }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(readRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      return c.json((await readCollectionSynonyms(deps.pool, name)) ?? none(name), 200)
    })
    .openapi(saveRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      const { rules } = c.req.valid('json')
      try {
        return c.json(await saveCollectionSynonyms(deps.pool, name, rules, principalOf(c).id), 200)
      } catch (error) {
        if (error instanceof SynonymFileError) throw new HttpError(400, `invalid synonyms: ${error.message}`)
        throw error
      }
    })
    .openapi(deleteRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      await deleteCollectionSynonyms(deps.pool, name)
      return c.json(none(name), 200)
    })
}

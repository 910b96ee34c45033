import { randomUUID } from 'node:crypto'
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { canSee } from '@rag/access'
import {
  evaluationCaseListSchema,
  evaluationCaseRequestSchema,
  evaluationCaseSchema,
} from '@rag/api-contract'
import type { Pool } from '@rag/db'
import {
  collectionHoldsSource,
  deleteEvaluationCase,
  listEvaluationCases,
  readFeedback,
  saveEvaluationCase,
} from '@rag/questions'
import { principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { collectionParams, grantedCollection } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  jsonBody,
  jsonResponse,
  jsonWriteErrors,
  readErrors,
  uuidParam,
  writeErrors,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const caseAnswer = (description: string) => jsonResponse(description, evaluationCaseSchema)

const fromFeedbackRoute = defineRoute(
  {
    method: 'post',
    path: '/feedback/{id}/case',
    operationId: 'makeEvaluationCase',
    tags: ['questions'],
    summary:
      "Turn feedback into a case of its collection's evaluation set (editor): the source that answers it, or null — the documents do not say",
    request: {
      params: z.object({ id: uuidParam('id', 'The feedback') }),
      body: jsonBody(evaluationCaseRequestSchema),
    },
    responses: {
      201: caseAnswer('The case (the same question again replaces its expectation)'),
      ...jsonWriteErrors('No such feedback for this key'),
    },
  },
  { role: 'editor', audit: 'evaluation.change' },
)

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/collections/{name}/cases',
    operationId: 'listEvaluationCases',
    tags: ['questions'],
    summary: "A collection's evaluation set (editor): what `pnpm eval --collection` and calibration read",
    request: { params: collectionParams },
    responses: {
      200: {
        description: 'The cases, oldest first',
        content: { 'application/json': { schema: evaluationCaseListSchema } },
      },
      ...readErrors('No such collection for this key'),
    },
  },
  { role: 'editor' },
)

const deleteRoute = defineRoute(
  {
    method: 'delete',
    path: '/collections/{name}/cases/{id}',
    operationId: 'deleteEvaluationCase',
    tags: ['questions'],
    summary: "Remove a case from a collection's evaluation set (editor)",
    request: { params: collectionParams.extend({ id: uuidParam('id', 'The case') }) },
    responses: {
      204: { description: 'Removed' },
      ...writeErrors('No such case in a collection of this key'),
    },
  },
  { role: 'editor', audit: 'evaluation.change' },
)

/**
 * A collection's evaluation set, grown from what people said of answers: a reviewer turns a piece
 * of feedback into a case in one step (the right source, or "the documents do not say").
 */
export function evaluationCaseRoutes(deps: { pool: Pool }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(fromFeedbackRoute, async (c) => {
      const { id } = c.req.valid('param')
      const { source, collection: named } = c.req.valid('json')
      const principal = principalOf(c)
      const feedback = await readFeedback(
        deps.pool,
        id,
        principal.role === 'admin' ? null : principal.collections,
      )
      if (!feedback) throw new HttpError(404, `no feedback ${id}`)
      const collection = named ?? (feedback.collections.length === 1 ? feedback.collections[0] : undefined)
      if (!collection)
        throw new HttpError(
          400,
          `collection: the feedback spans ${feedback.collections.join(', ') || 'no collection'}; name one`,
          {
            field: 'collection',
          },
        )
      if (!feedback.collections.includes(collection) || !canSee(principal, collection))
        throw new HttpError(400, `collection: the feedback is not of ${JSON.stringify(collection)}`, {
          field: 'collection',
        })
      auditCollection(c, collection)
      if (source !== null && !(await collectionHoldsSource(deps.pool, collection, source)))
        throw new HttpError(
          400,
          `source: the collection ${JSON.stringify(collection)} holds no passage ${JSON.stringify(source)} (name one its search finds, e.g. GET /search?collection=${encodeURIComponent(collection)}&q=…)`,
          { field: 'source' },
        )
      const saved = await saveEvaluationCase(deps.pool, {
        id: randomUUID(),
        collection,
        question: feedback.question,
        expectedSource: source,
        feedbackId: feedback.id,
        createdBy: principal.name,
      })
      return c.json(saved, 201)
    })
    .openapi(listRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      return c.json({ cases: await listEvaluationCases(deps.pool, name) }, 200)
    })
    .openapi(deleteRoute, async (c) => {
      const { name: asked, id } = c.req.valid('param')
      const name = await grantedCollection(c, deps.pool, asked)
      if (!(await deleteEvaluationCase(deps.pool, name, id)))
        throw new HttpError(404, `no case ${id} in ${name}`)
      return c.body(null, 204)
    })
}

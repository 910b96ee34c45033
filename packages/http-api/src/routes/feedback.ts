import { randomUUID } from 'node:crypto'
import { OpenAPIHono, z } from '@hono/zod-openapi'
import {
  FEEDBACK_REASONS,
  FEEDBACK_VERDICTS,
  feedbackListSchema,
  feedbackRequestSchema,
  feedbackSchema,
  MAX_LIST_LIMIT,
} from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { collectionsOf, listFeedback, readQuestion, saveFeedback } from '@rag/questions'
import { keyOwner, principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { grantedCollectionIfNamed } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  errorResponse,
  jsonBody,
  jsonResponse,
  jsonWriteErrors,
  unknownCollectionError,
  uuidParam,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const giveRoute = defineRoute(
  {
    method: 'post',
    path: '/ask/{id}/feedback',
    operationId: 'giveFeedback',
    tags: ['questions'],
    summary: 'Say whether an answer was right (👍/👎, why, a comment): kept for review and evaluation',
    request: {
      params: z.object({ id: uuidParam('id', 'The question') }),
      body: jsonBody(feedbackRequestSchema),
    },
    responses: {
      201: jsonResponse('Recorded (again: it replaces what was said before)', feedbackSchema),
      ...jsonWriteErrors('No such question for this key (unknown, another asker’s, or expired)'),
      409: errorResponse('The question has no answer to judge (not done yet, failed or cancelled)'),
    },
  },
  { role: 'reader', limit: 'questions', audit: 'feedback' },
)

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/feedback',
    operationId: 'listFeedback',
    tags: ['questions'],
    summary: 'Feedback on answers, newest first, within the collections this key may review (editor)',
    request: {
      query: z.object({
        collection: z.string().max(200).optional(),
        verdict: z.enum(FEEDBACK_VERDICTS).optional(),
        reason: z.enum(FEEDBACK_REASONS).optional(),
        since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'ISO 8601, inclusive' }),
        until: z.iso.datetime({ offset: true }).optional().openapi({ description: 'ISO 8601, exclusive' }),
        limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(100),
      }),
    },
    responses: {
      200: jsonResponse('The feedback', feedbackListSchema),
      ...commonErrors,
      ...unknownCollectionError,
    },
  },
  { role: 'editor' },
)

/**
 * POST /ask/{id}/feedback (the asker, on their own answered question) and GET /feedback (editors
 * and admins, within their collections): what people said of answers, kept with a snapshot of
 * the question, its answer and its sources, to be turned into evaluation cases.
 */
export function feedbackRoutes(deps: { pool: Pool }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(giveRoute, async (c) => {
      const { id } = c.req.valid('param')
      const body = c.req.valid('json')
      const owner = keyOwner(c)
      const question = await readQuestion(deps.pool, id, { owner })
      if (!question)
        throw new HttpError(404, `no question ${id} (unknown, or expired after its retention time)`)
      if (question.status !== 'done')
        throw new HttpError(409, `the question is ${question.status}: there is no answer to judge`)
      const collections = collectionsOf(question)
      if (collections.length === 1) auditCollection(c, collections[0] as string)
      const saved = await saveFeedback(deps.pool, randomUUID(), question, {
        ...body,
        owner,
        givenBy: principalOf(c).name,
      })
      return c.json(saved, 201)
    })
    .openapi(listRoute, async (c) => {
      const query = c.req.valid('query')
      await grantedCollectionIfNamed(c, deps.pool, query.collection)
      const principal = principalOf(c)
      const feedback = await listFeedback(deps.pool, {
        ...query,
        visible: principal.role === 'admin' ? null : principal.collections,
      })
      return c.json({ feedback }, 200)
    })
}

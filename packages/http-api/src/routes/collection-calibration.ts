import { OpenAPIHono } from '@hono/zod-openapi'
import { calibrationRequestSchema, calibrationSchema } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Embedder } from '@rag/embeddings'
import {
  CalibrationError,
  calibrateCollection,
  deleteCalibration,
  readCalibration,
  type StoredCalibration,
} from '@rag/questions'
import { type SynonymSource, synonymSource } from '@rag/retrieval'
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

const answer = (description: string) => jsonResponse(description, calibrationSchema)
const path = '/collections/{name}/calibration'

const readRoute = defineRoute(
  {
    method: 'get',
    path,
    operationId: 'getCalibration',
    tags: ['search'],
    summary:
      "A collection's own refusal judgement and its cross-validated report (null: the shipped one applies)",
    request: { params: collectionParams },
    responses: {
      200: answer('The calibration'),
      ...readErrors('No such collection for this key'),
    },
  },
  { role: 'reader' },
)
const fitRoute = defineRoute(
  {
    method: 'post',
    path,
    operationId: 'calibrate',
    tags: ['search'],
    summary:
      "Fit a collection's refusal judgement on its team's questions (editor): answerable ones with their source, unanswerable ones with source null; reported cross-validated",
    request: {
      params: collectionParams,
      body: jsonBody(calibrationRequestSchema),
    },
    responses: {
      200: answer('The calibration now in use for questions searching this collection alone'),
      ...jsonWriteErrors('No such collection for this key'),
    },
  },
  { role: 'editor', audit: 'calibration.change' },
)
const deleteRoute = defineRoute(
  {
    method: 'delete',
    path,
    operationId: 'deleteCalibration',
    tags: ['search'],
    summary: 'Go back to the shipped refusal judgement for a collection (editor)',
    request: { params: collectionParams },
    responses: {
      200: answer('No calibration'),
      ...writeErrors('No such collection for this key'),
    },
  },
  { role: 'editor', audit: 'calibration.change' },
)

const view = (collection: string, stored: StoredCalibration | null) => ({
  collection,
  report: stored?.report ?? null,
  model: stored
    ? { features: stored.model.features, weights: stored.model.weights, bias: stored.model.bias }
    : null,
  updatedAt: stored?.updatedAt ? new Date(stored.updatedAt).toISOString() : null,
  updatedBy: stored?.updatedBy ?? null,
})

export interface CalibrationRouteDeps {
  pool: Pool
  retrieval: RetrievalSection
  getEmbedder: () => Promise<Embedder | null>
  synonyms?: SynonymSource
}

/** GET, POST and DELETE /collections/{name}/calibration: refusal fitted on a team's own questions. */
export function collectionCalibrationRoutes(deps: CalibrationRouteDeps) {
  const synonyms = deps.synonyms ?? synonymSource(deps.pool, deps.retrieval.synonyms)
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(readRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      return c.json(view(name, await readCalibration(deps.pool, name)), 200)
    })
    .openapi(fitRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      const { questions } = c.req.valid('json')
      try {
        const stored = await calibrateCollection(
          { pool: deps.pool, retrieval: deps.retrieval, synonyms, embedder: await deps.getEmbedder() },
          name,
          questions,
          principalOf(c).id,
        )
        return c.json(view(name, stored), 200)
      } catch (error) {
        if (error instanceof CalibrationError) throw new HttpError(400, `cannot calibrate: ${error.message}`)
        throw error
      }
    })
    .openapi(deleteRoute, async (c) => {
      const name = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      await deleteCalibration(deps.pool, name)
      return c.json(view(name, null), 200)
    })
}

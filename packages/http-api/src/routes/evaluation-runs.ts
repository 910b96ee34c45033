import { OpenAPIHono, z } from '@hono/zod-openapi'
import type { Principal } from '@rag/access'
import {
  evaluationQuestionsPageSchema,
  evaluationRunDetailSchema,
  evaluationRunListSchema,
  evaluationRunSchema,
} from '@rag/api-contract'
import {
  DatasetError,
  type EvaluationRun,
  type LiveEvaluationDeps,
  listRuns,
  readRun,
  runQuestions,
  startCollectionEvaluation,
} from '@rag/evaluation'
import { principalOf } from '../access/api-key.ts'
import { collectionParams, grantedCollection, grantedCollectionIfNamed } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  errorResponse,
  jsonResponse,
  readErrors,
  unknownCollectionError,
  uuidParam,
  writeErrors,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const runParams = z.object({ id: uuidParam('id', 'The evaluation run') })

const startRoute = defineRoute(
  {
    method: 'post',
    path: '/collections/{name}/evaluations',
    operationId: 'runCollectionEvaluation',
    tags: ['questions'],
    summary:
      "Run the collection's evaluation set against it as it is now (editor): each case is asked as a person's question would be, the run is kept for the Evaluation view",
    request: { params: collectionParams },
    responses: {
      202: jsonResponse('Started: poll GET /evaluations/{id}', evaluationRunSchema),
      ...writeErrors('No such collection for this key'),
      409: errorResponse('The collection has no evaluation cases yet'),
    },
  },
  { role: 'editor', limit: 'questions', audit: 'evaluation.run' },
)

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/evaluations',
    operationId: 'listEvaluationRuns',
    tags: ['questions'],
    summary: 'Kept evaluation runs, newest first, of the collections this key may review (editor)',
    request: {
      query: z.object({
        collection: z.string().min(1).max(200).optional(),
        limit: z.coerce.number().int().min(1).max(200).default(50),
      }),
    },
    responses: {
      200: jsonResponse('The runs', evaluationRunListSchema),
      ...commonErrors,
      ...unknownCollectionError,
    },
  },
  { role: 'editor' },
)

const readRoute = defineRoute(
  {
    method: 'get',
    path: '/evaluations/{id}',
    operationId: 'getEvaluationRun',
    tags: ['questions'],
    summary: 'A run with its report: figures per configuration, the refusal sweep, time histograms (editor)',
    request: { params: runParams },
    responses: {
      200: jsonResponse('The run', evaluationRunDetailSchema),
      ...readErrors('No such run for this key'),
    },
  },
  { role: 'editor' },
)

const questionsRoute = defineRoute(
  {
    method: 'get',
    path: '/evaluations/{id}/questions',
    operationId: 'listEvaluationRunQuestions',
    tags: ['questions'],
    summary: "A page of one configuration's questions with what was answered (the drill-down; editor)",
    request: {
      params: runParams,
      query: z.object({
        config: z.string().min(1).max(200),
        offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(200).default(50),
        wrong: z
          .enum(['true', 'false'])
          .default('false')
          .openapi({ description: 'true: only the questions not answered right' }),
      }),
    },
    responses: {
      200: jsonResponse('The questions in the set’s order', evaluationQuestionsPageSchema),
      ...readErrors('No such run for this key'),
    },
  },
  { role: 'editor' },
)

/** A run of a collection the principal reviews; a dataset run (no collection) is an admin's. */
const mayRead = (principal: Principal, run: Pick<EvaluationRun, 'collection'>) =>
  run.collection === null
    ? principal.role === 'admin'
    : principal.collections === null || principal.collections.includes(run.collection)

/**
 * Evaluation runs: started from the web app over a collection's cases, or kept by `pnpm eval
 * --save`; read as a report and, a page at a time, question by question.
 */
export function evaluationRunRoutes(deps: LiveEvaluationDeps) {
  const visibleRun = async (principal: Principal, id: string) => {
    const run = await readRun(deps.pool, id)
    if (!run || !mayRead(principal, run)) throw new HttpError(404, `no evaluation run ${id}`)
    return run
  }
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(startRoute, async (c) => {
      const collection = await grantedCollection(c, deps.pool, c.req.valid('param').name)
      const started = await startCollectionEvaluation(deps, {
        collection,
        // The questions asked as the platform answers them now: its default options.
        configs: [{ name: 'as configured', options: {}, retrieval: {} }],
        startedBy: principalOf(c).name,
      }).catch((error: unknown) => {
        if (error instanceof DatasetError) throw new HttpError(409, error.message)
        throw error
      })
      const { report: _report, ...run } = await visibleRun(principalOf(c), started.runId)
      c.header('Location', `/evaluations/${started.runId}`)
      return c.json(run, 202)
    })
    .openapi(listRoute, async (c) => {
      const { collection, limit } = c.req.valid('query')
      await grantedCollectionIfNamed(c, deps.pool, collection)
      const principal = principalOf(c)
      const runs = await listRuns(deps.pool, { collections: principal.collections, collection, limit })
      return c.json({ runs: runs.filter((run) => mayRead(principal, run)) }, 200)
    })
    .openapi(readRoute, async (c) => c.json(await visibleRun(principalOf(c), c.req.valid('param').id), 200))
    .openapi(questionsRoute, async (c) => {
      const { id } = c.req.valid('param')
      const { config, offset, limit, wrong } = c.req.valid('query')
      await visibleRun(principalOf(c), id)
      const page = await runQuestions(deps.pool, id, { config, offset, limit, wrongOnly: wrong === 'true' })
      const following = offset + page.questions.length
      const next = new URLSearchParams({ config, offset: String(following), limit: String(limit), wrong })
      return c.json(
        {
          total: page.total,
          offset,
          next: following < page.total ? `/evaluations/${id}/questions?${next}` : null,
          questions: page.questions,
        },
        200,
      )
    })
}

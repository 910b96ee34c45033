import { OpenAPIHono, z } from '@hono/zod-openapi'
import { askAcceptedSchema, askRequestSchema, MAX_QUESTION_CHARS } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import { type AnsweringModels, askQuestion, isFinished, type QuestionStatus } from '@rag/questions'
import type { Producer, QuestionEventSubscriber } from '@rag/queue'
import { bodyLimit } from 'hono/body-limit'
import { streamSSE } from 'hono/streaming'
import { keyOwner, principalOf } from '../access/api-key.ts'
import { grantedCollectionIfNamed } from '../access/collection-access.ts'
import { askerOf } from '../access/granted.ts'
import type { Revocations } from '../access/revocations.ts'
import { defineRoute } from '../access/route-policy.ts'
import type { StreamTickets } from '../access/stream-tickets.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  crossSiteErrors,
  errorResponse,
  jsonBody,
  jsonChangeErrors,
  jsonResponse,
  unknownCollectionError,
  uuidParam,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import { parsePosition } from './answer-position.ts'
import { followQuestion } from './ask-events.ts'
import { questionAccess } from './question-access.ts'
import { questionSchema, questionView } from './question-view.ts'

export interface AskRouteDeps {
  pool: Pool
  producer: Producer
  logger: Logger
  retrieval: RetrievalSection
  /** Which models are configured: they set the default options (no reranker → no reranking). */
  models: AnsweringModels
  questionEvents: QuestionEventSubscriber
  queuePrefix: string
  /** Ends a stream whose key is revoked (absent: streams end with their question only). */
  revocations?: Revocations
  /** Stream tickets for browsers' EventSource (absent: none are issued). */
  tickets?: StreamTickets
}

/** A body far past a question's MAX_QUESTION_CHARS is refused before it is read. */
const MAX_ASK_BODY_BYTES = 16 * 1024

const idParams = z.object({ id: uuidParam('id', 'The question, as POST /ask returned it') })
const gone = { 404: errorResponse('Unknown question, or expired after its retention time') }

const askRoute = defineRoute(
  {
    method: 'post',
    path: '/ask',
    operationId: 'askQuestion',
    tags: ['questions'],
    summary: 'Ask a question: queued, answered by the retrieve → rerank → generate workers',
    middleware: [
      bodyLimit({
        maxSize: MAX_ASK_BODY_BYTES,
        onError: () => {
          throw new HttpError(
            413,
            `the request body is over ${MAX_ASK_BODY_BYTES / 1024} KiB; a question is at most ${MAX_QUESTION_CHARS} characters`,
          )
        },
      }),
    ] as const,
    request: { body: jsonBody(askRequestSchema) },
    responses: {
      202: {
        description: 'Queued; poll `links.self` or follow `links.events`',
        content: {
          'application/json': {
            schema: askAcceptedSchema,
          },
        },
      },
      ...jsonChangeErrors,
      ...unknownCollectionError,
      413: errorResponse('Body too large'),
      429: errorResponse(
        'Too many questions a minute (ASK_RATE_PER_MINUTE), or too many wrong keys; see Retry-After',
      ),
    },
  },
  { role: 'reader', limit: 'questions', audit: 'ask' },
)
const readRoute = defineRoute(
  {
    method: 'get',
    path: '/ask/{id}',
    operationId: 'getQuestion',
    tags: ['questions'],
    summary: 'The question as it stands: status, then answer, citations and sources',
    request: { params: idParams },
    responses: {
      200: { description: 'The question', content: { 'application/json': { schema: questionSchema } } },
      ...commonErrors,
      ...gone,
    },
  },
  { role: 'reader' },
)
const eventsRoute = defineRoute(
  {
    method: 'get',
    path: '/ask/{id}/events',
    operationId: 'followQuestion',
    tags: ['questions'],
    summary: 'Server-sent events: status, token {text}, restart, done {the whole question}',
    request: {
      params: idParams,
      headers: z.object({
        'last-event-id': z.string().optional().openapi({
          description: 'The `id` of the last event received: the stream resumes after it',
        }),
      }),
    },
    responses: {
      200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
      204: { description: 'The question is finished and the client already has its `done` event' },
      ...commonErrors,
      ...gone,
    },
  },
  { role: 'reader' },
)

const ticketRoute = defineRoute(
  {
    method: 'post',
    path: '/ask/{id}/stream-ticket',
    operationId: 'makeStreamTicket',
    tags: ['questions'],
    summary:
      "A ticket for this question's events in a URL (`?ticket=`): a browser's own EventSource cannot send a key, even from another origin; good for STREAM_TICKET_SECONDS",
    request: { params: idParams },
    responses: {
      201: jsonResponse(
        'The ticket, and the events URL that carries it',
        z.object({ ticket: z.string(), expiresAt: z.string(), events: z.string() }).openapi('StreamTicket'),
      ),
      ...commonErrors,
      ...crossSiteErrors,
      ...gone,
      503: errorResponse('Tickets are not available on this gateway'),
    },
  },
  { role: 'reader' },
)

const cancelRoute = defineRoute(
  {
    method: 'delete',
    path: '/ask/{id}',
    operationId: 'cancelQuestion',
    tags: ['questions'],
    summary: 'Cancel a question: it ends as `cancelled`, and an answer being written stops, freeing the LLM',
    request: { params: idParams },
    responses: {
      200: {
        description: 'Cancelled: the question as it ended',
        content: { 'application/json': { schema: questionSchema } },
      },
      409: errorResponse(
        'The question had already finished (done, failed or cancelled): nothing was stopped',
      ),
      ...commonErrors,
      ...crossSiteErrors,
      ...gone,
    },
  },
  { role: 'reader' },
)

/**
 * POST /ask → 202 {id}; GET /ask/:id (poll); GET /ask/:id/events (server-sent events);
 * DELETE /ask/:id (cancel).
 */
export function askRoutes(deps: AskRouteDeps) {
  const questions = questionAccess(deps)
  /** The question, for its owner (anyone else is told there is none). */
  const current = async (id: string, owner?: string) => {
    const question = await questions.find(id, owner)
    if (!question)
      throw new HttpError(404, `no question ${id} (unknown, or expired after its retention time)`)
    return question
  }
  const followDeps = {
    events: deps.questionEvents,
    partialAnswer: questions.partialAnswer,
    current,
    watchers: questions.watchers,
    cancel: questions.cancel,
  }

  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(askRoute, async (c) => {
      const request = c.req.valid('json')
      await grantedCollectionIfNamed(c, deps.pool, request.options.collection)
      // Accepted once it is in Postgres, even when Redis is down (the reconciler enqueues it then).
      const { id } = await askQuestion(
        deps,
        { question: request.question, options: request.options },
        askerOf(c, request.options.collection),
      )
      c.header('Location', `/ask/${id}`)
      return c.json(
        { id, status: 'queued' as const, links: { self: `/ask/${id}`, events: `/ask/${id}/events` } },
        202,
      )
    })
    .openapi(readRoute, async (c) =>
      c.json(questionView(await current(c.req.valid('param').id, keyOwner(c)), c.get('principal')), 200),
    )
    .openapi(eventsRoute, async (c) => {
      const { id } = c.req.valid('param')
      const question = await current(id, keyOwner(c))
      const resumeFrom = parsePosition(c.req.header('last-event-id'))
      // A client that was sent `done` and reconnects has everything: 204 tells EventSource to stop.
      if (isFinished(question.status) && resumeFrom && isFinished(resumeFrom.status as QuestionStatus))
        return c.body(null, 204)
      const revoked = deps.revocations?.watch(c)
      return streamSSE(c, (stream) =>
        followQuestion(stream, id, followDeps, resumeFrom, revoked?.signal, c.get('principal')).finally(() =>
          revoked?.stop(),
        ),
      )
    })
    .openapi(ticketRoute, async (c) => {
      const { id } = c.req.valid('param')
      // Only the asker's own question (anyone else is told there is none).
      await current(id, keyOwner(c))
      if (!deps.tickets) throw new HttpError(503, 'stream tickets are not available on this gateway')
      const { ticket, expiresAt } = await deps.tickets.issue({
        questionId: id,
        principal: principalOf(c),
        owner: keyOwner(c),
      })
      return c.json({ ticket, expiresAt, events: `/ask/${id}/events?ticket=${ticket}` }, 201)
    })
    .openapi(cancelRoute, async (c) => {
      const { id } = c.req.valid('param')
      const before = await current(id, keyOwner(c))
      if (
        isFinished(before.status) ||
        !(await questions.cancel(id, 'cancelled by the client (DELETE /ask/:id)'))
      )
        throw new HttpError(
          409,
          `question ${id} has already finished (${(await current(id)).status}): nothing to cancel`,
        )
      return c.json(questionView(await current(id), c.get('principal')), 200)
    })
}

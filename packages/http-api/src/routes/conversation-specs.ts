import { z } from '@hono/zod-openapi'
import {
  askAcceptedSchema,
  conversationDetailSchema,
  conversationListSchema,
  conversationMessageRequestSchema,
  conversationSchema,
  createConversationRequestSchema,
  MAX_QUESTION_CHARS,
  renameConversationRequestSchema,
} from '@rag/api-contract'
import { bodyLimit } from 'hono/body-limit'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  crossSiteErrors,
  errorResponse,
  jsonChangeErrors,
  jsonWriteErrors,
  uuidParam,
} from '../openapi/common-schemas.ts'

// The conversation routes as the OpenAPI spec declares them and the validator checks them.

/** A message is at most a question's length; a longer one is refused with 413. */
export const MAX_MESSAGE_CHARS = MAX_QUESTION_CHARS

const idParams = z.object({ id: uuidParam('id', 'The conversation') })
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})
const body = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
})
const notFound = { 404: errorResponse('No such conversation (or another API key made it)') }
/** A message is read only up to this size: far past the character limit is refused unread. */
const MAX_MESSAGE_BODY_BYTES = 16 * 1024

export const createConversationRoute = defineRoute(
  {
    method: 'post',
    path: '/conversations',
    operationId: 'createConversation',
    tags: ['conversations'],
    summary: 'Start a thread (owned by the API key that makes it), optionally scoped to a collection',
    request: body(createConversationRequestSchema),
    responses: {
      201: json(conversationSchema, 'The new thread'),
      ...jsonWriteErrors('No such collection among those the key may read'),
    },
  },
  { role: 'reader' },
)

export const listConversationsRoute = defineRoute(
  {
    method: 'get',
    path: '/conversations',
    operationId: 'listConversations',
    tags: ['conversations'],
    summary: "The caller's threads, the most recently used first",
    responses: { 200: json(conversationListSchema, 'Threads'), ...commonErrors },
  },
  { role: 'reader' },
)

export const getConversationRoute = defineRoute(
  {
    method: 'get',
    path: '/conversations/{id}',
    operationId: 'getConversation',
    tags: ['conversations'],
    summary: 'A thread with its turns (each a question: status, rewritten query, answer, sources)',
    request: { params: idParams },
    responses: { 200: json(conversationDetailSchema, 'The thread'), ...commonErrors, ...notFound },
  },
  { role: 'reader' },
)

export const renameConversationRoute = defineRoute(
  {
    method: 'patch',
    path: '/conversations/{id}',
    operationId: 'renameConversation',
    tags: ['conversations'],
    summary: 'Rename a thread',
    request: { params: idParams, ...body(renameConversationRequestSchema) },
    responses: {
      200: json(conversationSchema, 'The renamed thread'),
      ...jsonChangeErrors,
      ...notFound,
    },
  },
  { role: 'reader' },
)

export const deleteConversationRoute = defineRoute(
  {
    method: 'delete',
    path: '/conversations/{id}',
    operationId: 'deleteConversation',
    tags: ['conversations'],
    summary: 'Delete a thread and its turns',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...commonErrors, ...crossSiteErrors, ...notFound },
  },
  { role: 'reader' },
)

export const postMessageRoute = defineRoute(
  {
    method: 'post',
    path: '/conversations/{id}/messages',
    operationId: 'postConversationMessage',
    tags: ['conversations'],
    summary:
      'Ask in a thread: a follow-up is rewritten to stand alone from the earlier turns, then answered like POST /ask',
    middleware: [
      bodyLimit({
        maxSize: MAX_MESSAGE_BODY_BYTES,
        onError: () => {
          throw new HttpError(
            413,
            `the request body is over 16 KiB; a message is at most ${MAX_MESSAGE_CHARS} characters`,
          )
        },
      }),
    ] as const,
    request: {
      params: idParams,
      // The message's length is checked by the handler (413): declared, not enforced, here.
      ...body(conversationMessageRequestSchema),
    },
    responses: {
      202: json(askAcceptedSchema, 'Queued; poll `links.self` or follow `links.events`'),
      ...jsonChangeErrors,
      ...notFound,
      413: errorResponse(`The message is over ${MAX_MESSAGE_CHARS} characters`),
      429: errorResponse('Too many questions a minute (ASK_RATE_PER_MINUTE), or too many wrong keys'),
    },
  },
  { role: 'reader', limit: 'questions', audit: 'ask' },
)

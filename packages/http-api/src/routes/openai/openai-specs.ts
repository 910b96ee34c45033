import { z } from '@hono/zod-openapi'
import { MAX_QUESTION_CHARS } from '@rag/api-contract'
import { bodyLimit } from 'hono/body-limit'
import { defineRoute } from '../../access/route-policy.ts'
import { commonErrors, crossSiteErrors, jsonBody } from '../../openapi/common-schemas.ts'
import { chatCompletionRequestSchema } from './chat-request.ts'
import { openAiError, openAiErrorResponse } from './openai-error.ts'

/** A whole chat history is read at most this far (the last message is still limited to MAX_QUESTION_CHARS). */
const MAX_BODY_BYTES = 1024 * 1024

// The OpenAI-compatible routes as the OpenAPI spec declares them (the bodies are OpenAI's own).

const modelSchema = z
  .object({ id: z.string(), object: z.literal('model'), created: z.number(), owned_by: z.string() })
  .openapi('OpenAiModel')

const modelListSchema = z
  .object({ object: z.literal('list'), data: z.array(modelSchema) })
  .openapi('OpenAiModelList')

const completionSchema = z
  .looseObject({
    id: z.string(),
    object: z.literal('chat.completion'),
    created: z.number(),
    model: z.string(),
    choices: z.array(
      z.object({
        index: z.number(),
        message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
        finish_reason: z.string(),
      }),
    ),
    usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() }),
    citations: z
      .array(z.object({ marker: z.number(), sourceId: z.string(), title: z.string(), text: z.string() }))
      .openapi({ description: 'The passages the answer cites (an addition to OpenAI’s shape)' }),
    looked_at: z
      .array(z.object({ marker: z.number(), sourceId: z.string(), title: z.string(), text: z.string() }))
      .openapi({
        description:
          'For a refusal, the passages it looked at, which were not enough to answer (also listed after the refusal)',
      }),
  })
  .openapi('ChatCompletion')

export const listModelsRoute = defineRoute(
  {
    method: 'get',
    path: '/v1/models',
    operationId: 'listModels',
    tags: ['openai'],
    summary: 'OpenAI-compatible: one model per collection, plus "all" (every document)',
    responses: {
      200: { description: 'Models', content: { 'application/json': { schema: modelListSchema } } },
      ...commonErrors,
    },
  },
  { role: 'reader' },
)

export const retrieveModelRoute = defineRoute(
  {
    method: 'get',
    path: '/v1/models/{model}',
    operationId: 'retrieveModel',
    tags: ['openai'],
    summary: 'OpenAI-compatible: one model (a collection, or "all")',
    request: { params: z.object({ model: z.string().min(1) }) },
    responses: {
      200: { description: 'The model', content: { 'application/json': { schema: modelSchema } } },
      404: openAiErrorResponse('No such model (collection)'),
      ...commonErrors,
    },
  },
  { role: 'reader' },
)

export const chatCompletionsRoute = defineRoute(
  {
    method: 'post',
    path: '/v1/chat/completions',
    operationId: 'createChatCompletion',
    tags: ['openai'],
    summary:
      'OpenAI-compatible chat: the last user message is asked of the model’s collection with the earlier messages as history; stream or not',
    middleware: [
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: () => {
          throw openAiError(413, 'the request body is over 1 MiB', { code: 'request_too_large' })
        },
      }),
    ] as const,
    request: {
      body: jsonBody(chatCompletionRequestSchema),
    },
    responses: {
      200: {
        description:
          'The completion, or with `stream: true` its chunks as server-sent events ending with `[DONE]`',
        content: {
          'application/json': { schema: completionSchema },
          'text/event-stream': { schema: z.string() },
        },
      },
      ...commonErrors,
      ...crossSiteErrors,
      400: openAiErrorResponse('Invalid request: no messages, the last one not from the user, a bad field'),
      404: openAiErrorResponse('No such model (collection)'),
      413: openAiErrorResponse(
        `The last message is over ${MAX_QUESTION_CHARS} characters, or the body over 1 MiB`,
      ),
      415: openAiErrorResponse('The body is not application/json'),
      429: openAiErrorResponse('Too many questions a minute (ASK_RATE_PER_MINUTE), or too many wrong keys'),
      500: openAiErrorResponse('The answer failed'),
    },
  },
  { role: 'reader', limit: 'questions', audit: 'ask' },
)

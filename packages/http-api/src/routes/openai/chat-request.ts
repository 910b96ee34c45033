import { z } from '@hono/zod-openapi'
import { MAX_QUESTION_CHARS } from '@rag/api-contract'
import { type ConversationTurn, HISTORY_TURNS, type QuestionRequest } from '@rag/questions'
import { openAiError } from './openai-error.ts'

const contentPart = z.looseObject({ type: z.string(), text: z.string().optional() })

/** The parts of OpenAI's chat request the platform reads; any other field is accepted and ignored. */
export const chatCompletionRequestSchema = z
  .looseObject({
    model: z.string().min(1).openapi({ description: '"all", or a collection name (GET /v1/models)' }),
    messages: z.array(
      z.looseObject({
        role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
        content: z.union([z.string(), z.array(contentPart), z.null()]).optional(),
      }),
    ),
    stream: z.boolean().nullable().optional(),
    // One answer per question: more choices would be the same answer again.
    n: z
      .literal(1, { error: 'only n = 1 is supported (one answer from the documents)' })
      .nullable()
      .optional(),
    max_tokens: z.number().int().min(1).max(8192).nullable().optional(),
    max_completion_tokens: z.number().int().min(1).max(8192).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  })
  .openapi('ChatCompletionRequest')

export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>
type ChatMessage = ChatCompletionRequest['messages'][number]

/** A message's text: the string, or its text parts joined. */
export const textOf = (message: ChatMessage): string =>
  typeof message.content === 'string'
    ? message.content
    : (message.content ?? []).map((part) => part.text ?? '').join('')

/**
 * The earlier turns of an OpenAI-style conversation: each user message with the assistant reply
 * after it (system messages are the client's own instructions; answers come from the documents).
 */
export function historyOf(messages: ChatMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = []
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ChatMessage
    if (message.role !== 'user') continue
    const reply = messages[i + 1]
    if (reply?.role === 'assistant')
      turns.push({ question: textOf(message), searchQuery: null, answer: textOf(reply) })
  }
  return turns
}

/** Every document, whatever its collection: the model that is no collection. */
export const ALL_COLLECTIONS = 'all'

/**
 * Step one of a chat completion: the question a request asks — its last user message, the earlier
 * turns as history, the model as the collection searched, the caps as options — or OpenAI's error
 * for a request that asks none (no user message last, empty, too long, an unknown model).
 */
export function chatQuestion(
  body: ChatCompletionRequest,
  visibleCollections: string[],
): { request: QuestionRequest; collection: string | undefined } {
  const last = body.messages.at(-1)
  if (!last) throw openAiError(400, 'messages must hold at least one message', { param: 'messages' })
  if (last.role !== 'user')
    throw openAiError(400, `the last message must be from the user, not ${last.role}`, { param: 'messages' })
  const text = textOf(last).trim()
  if (!text) throw openAiError(400, 'the last message is empty', { param: 'messages' })
  if ([...text].length > MAX_QUESTION_CHARS)
    throw openAiError(413, `the last message is over ${MAX_QUESTION_CHARS} characters`, {
      param: 'messages',
      code: 'message_too_long',
    })
  if (body.model !== ALL_COLLECTIONS && !visibleCollections.includes(body.model))
    throw unknownModel(body.model)
  const collection = body.model !== ALL_COLLECTIONS ? body.model : undefined
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? undefined
  return {
    collection,
    request: {
      question: text,
      options: {
        ...(collection ? { collection } : {}),
        ...(maxTokens ? { maxTokens } : {}),
        ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
      },
      history: historyOf(body.messages.slice(0, -1)).slice(-HISTORY_TURNS),
    },
  }
}

/** OpenAI's answer to a model that is not a collection this key may see. */
export const unknownModel = (model: string) =>
  openAiError(404, `the model ${model} does not exist: GET /v1/models lists them`, {
    param: 'model',
    code: 'model_not_found',
  })

import { z } from '@hono/zod-openapi'
import type { ConversationTurn } from '@rag/questions'

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

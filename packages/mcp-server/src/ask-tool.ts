import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import {
  askOptionsSchema,
  askRequestSchema,
  createConversationRequestSchema,
  isQuestionFinished,
} from '@rag/api-contract'
import { ANSWER_TYPES } from '@rag/api-contract/enums'
import { type GatewayClient, GatewayError } from '@rag/gateway-client'
import { z } from 'zod'
import { progressReporter, reportWhileWaiting } from './progress.ts'
import { passageShape, toPassage } from './search-tool.ts'
import { guarded, structured } from './tool-result.ts'

/** The contract's answer options an agent may set (the rest stay the server's choice). */
const answerOptions = z
  .object(
    askOptionsSchema.pick({
      topK: true,
      mode: true,
      fusion: true,
      rerank: true,
      answer: true,
      collection: true,
    }).shape,
  )
  .optional()
  .describe('How to answer; the server chooses by default')

const answerOutput = {
  id: z.string().describe('The question id (GET /ask/{id} on the gateway)'),
  answer: z.string().nullable().describe('The answer, with [n] markers citing passages[n-1]'),
  refused: z.boolean().describe('True when the documents hold no answer'),
  citations: z
    .array(
      z.object({
        marker: z.number(),
        sourceId: z.string(),
        quotes: z
          .array(z.string())
          .optional()
          .describe('For an extractive answer: where in the passage it stands'),
        span: z
          .string()
          .optional()
          .describe(
            'For an extractive answer: its short answer (a number with its unit, a date, a name, yes/no)',
          ),
        spanType: z
          .enum(ANSWER_TYPES)
          .optional()
          .describe('The kind of answer the span is: the kind the question asks for (a date for when, …)'),
      }),
    )
    .describe('The [n] markers the answer uses and what each cites'),
  passages: z.array(z.object(passageShape)).describe('The passages the answer was built from'),
  degraded: z.array(z.string()).describe('What was skipped (no reranker, no LLM, …)'),
}

/** What a call says when its key is revoked (or its sign-in ends) while it waits. */
export const KEY_ENDED_DURING_CALL = 'this API key was revoked or this sign-in ended during the call'

/** Waits for the question's answer (with progress), and gives it as the tools' output. */
async function answerOf(
  client: GatewayClient,
  id: string,
  extra: Parameters<typeof progressReporter>[0] & { signal: AbortSignal },
  answerTimeoutMs: number,
) {
  const result = await client
    .waitForAnswer(id, {
      onPoll: reportWhileWaiting(progressReporter(extra), (answer) =>
        // The extractive answer, at once, while the LLM writes its own (the result is the final one).
        answer.provisional && answer.answer
          ? `provisional answer (the LLM is writing its own): ${answer.answer}`
          : answer.queue
            ? `waiting for the LLM: ${answer.queue.position} in line, about ${answer.queue.estimatedWaitSeconds} s`
            : `question ${answer.status}`,
      ),
      signal: extra.signal,
      timeoutMs: answerTimeoutMs,
    })
    .catch((error: unknown) => {
      // The key asked this question, so a 401 now means it stopped holding during the call: said
      // as such, whether the gateway's revocation notice or this poll gets there first.
      if (error instanceof GatewayError && error.status === 401)
        throw new Error(`${KEY_ENDED_DURING_CALL} (question ${id}: ${error.message})`)
      throw error
    })
  // The client cancelled the call: nobody waits for the answer, so the LLM is freed.
  if (extra.signal.aborted && !isQuestionFinished(result.status)) {
    await client.cancelQuestion(id).catch(() => undefined)
    throw new Error(`cancelled (question ${id})`)
  }
  if (result.status === 'failed') throw new Error(`the question failed: ${result.error}`)
  if (!isQuestionFinished(result.status))
    throw new Error(`no answer after ${answerTimeoutMs / 1000} s (question ${id} is ${result.status})`)
  return {
    id,
    answer: result.answer,
    refused: result.refused ?? false,
    citations: result.citations,
    passages: result.sources.map(toPassage),
    degraded: result.degraded,
    searchQuery: result.searchQuery,
  }
}

/**
 * `chat`: a message in a conversation (a new one when no id is given), so a follow-up
 * (「それは延長できますか」) is understood from the turns before it.
 */
export function registerChatTool(server: McpServer, client: GatewayClient, answerTimeoutMs: number) {
  server.registerTool(
    'chat',
    {
      title: 'Chat with the documents',
      description:
        'Like ask, in a conversation: pass the conversationId this returns with each next message, and a follow-up that points back (「それは…」, "it", "that") is rewritten to stand alone from the earlier turns before it is searched (searchQuery says how). Without a conversationId a new conversation starts.',
      inputSchema: {
        message: askRequestSchema.shape.question.describe('The message, in Japanese or English'),
        conversationId: z
          .string()
          .uuid()
          .optional()
          .describe('The conversation to continue (from an earlier chat)'),
        collection: createConversationRequestSchema.shape.collection.describe(
          "A new conversation searches only this collection's documents",
        ),
        options: answerOptions,
      },
      outputSchema: {
        conversationId: z.string().describe('Pass it with the next message'),
        searchQuery: z
          .string()
          .nullable()
          .describe('What was searched when the message was rewritten to stand alone'),
        ...answerOutput,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    ({ message, conversationId, collection, options }, extra) =>
      guarded(async () => {
        const thread =
          conversationId ?? (await client.createConversation(collection ? { collection } : {})).id
        const { id } = await client.say(thread, message, options ?? {})
        return structured({ conversationId: thread, ...(await answerOf(client, id, extra, answerTimeoutMs)) })
      }),
  )
}

export function registerAskTool(server: McpServer, client: GatewayClient, answerTimeoutMs: number) {
  server.registerTool(
    'ask',
    {
      title: 'Ask the documents',
      description:
        'Answer a question from the indexed documents only, citing them as [n] markers that point at the passages returned; says so (refused: true) when they hold no answer. Sends progress notifications while it works (a CPU answer can take minutes).',
      inputSchema: {
        question: askRequestSchema.shape.question,
        options: answerOptions,
      },
      outputSchema: answerOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ question, options }, extra) =>
      guarded(async () => {
        const { id } = await client.ask(question, options ?? {})
        const { searchQuery: _unused, ...answer } = await answerOf(client, id, extra, answerTimeoutMs)
        return structured(answer)
      }),
  )
}

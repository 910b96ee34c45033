import { randomUUID } from 'node:crypto'
import type { AskOptions } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import { askInConversation } from './conversations/ask-in-conversation.ts'
import { type AnsweringModels, resolveOptions } from './question-options.ts'
import type { ConversationTurn } from './question-store.ts'
import { submitQuestion } from './submit-question.ts'

type SubmitDeps = Parameters<typeof submitQuestion>[0]

/** A question as a client asks it: its text, the options it chose, the turns it follows. */
export interface QuestionRequest {
  question: string
  options?: AskOptions
  /** Earlier turns the client sent along (the OpenAI-style API carries them in its messages). */
  history?: ConversationTurn[]
  /** A turn of this stored thread: its history is read from it. */
  conversationId?: string
  /** Batch work (evaluation, API batches): in the LLM's line, every person's question goes first. */
  batch?: boolean
}

/** Who asks: whose the question is, and the collections they may read (null: all). */
export interface Asker {
  owner?: string
  collections: string[] | null
}

/**
 * The one way a question comes in — POST /ask, a conversation's message, /v1/chat/completions,
 * MCP (through /ask) and the evaluation: its options resolved against the configured defaults,
 * limited to the asker's collections, kept for the configured retention, recorded and enqueued.
 */
export async function askQuestion(
  deps: SubmitDeps & { retrieval: RetrievalSection; models: AnsweringModels },
  request: QuestionRequest,
  asker: Asker,
): Promise<{ id: string; enqueued: boolean }> {
  const id = randomUUID()
  const resolved = resolveOptions(request.options ?? {}, deps.retrieval, deps.models)
  const options = {
    ...resolved,
    ...(asker.collections !== null ? { within: asker.collections } : {}),
    ...(request.batch ? { batch: true } : {}),
  }
  const question = {
    id,
    question: request.question,
    options,
    ttlSeconds: deps.retrieval.questionTtlSeconds,
    ...(asker.owner !== undefined ? { owner: asker.owner } : {}),
  }
  const { enqueued } = request.conversationId
    ? await askInConversation(deps, { ...question, conversationId: request.conversationId })
    : await submitQuestion(deps, { ...question, ...(request.history ? { history: request.history } : {}) })
  return { id, enqueued }
}

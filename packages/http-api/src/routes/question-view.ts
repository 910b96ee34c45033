export { questionSchema, questionSourceSchema } from '@rag/api-contract'

import type { Principal } from '@rag/access'
import type { WatchedQuestion } from '@rag/questions'

/**
 * The answer as clients see it (internal ids left out). The answerability signals, the raw
 * figures the refusal was judged on, are an admin's to read (the probability and what decided
 * it are everyone's).
 */
export function questionView(question: WatchedQuestion, viewer: Principal | undefined) {
  return {
    id: question.id,
    status: question.status,
    question: question.question,
    options: question.options,
    answer: question.answer,
    provisional: question.provisional,
    queue: question.queue ?? null,
    refused: question.refused,
    answerability: question.answerability
      ? viewer?.role === 'admin'
        ? question.answerability
        : (({ signals: _signals, ...rest }) => rest)(question.answerability)
      : null,
    citations: question.citations,
    sources: question.sources.map(({ chunkId: _chunkId, ...source }) => ({
      ...source,
      collection: source.collection ?? null,
    })),
    degraded: question.degraded,
    /** RAG-Fusion: the rephrasings that were searched besides the question. */
    queries: question.queries,
    conversationId: question.conversationId,
    searchQuery: question.searchQuery,
    timings: question.timings,
    usage: question.usage,
    error: question.error,
    createdAt: question.createdAt,
    // ISO 8601; a turn of a thread is kept as long as the thread ('infinity' in the database): null.
    expiresAt: isoTimestamp(question.expiresAt),
  }
}

/** A timestamp as pg returns it (a Date, or ±Infinity for 'infinity') as ISO 8601, null when unending. */
function isoTimestamp(value: unknown): string | null {
  const date = value instanceof Date ? value : new Date(String(value))
  return Number.isFinite(date.getTime()) ? date.toISOString() : null
}

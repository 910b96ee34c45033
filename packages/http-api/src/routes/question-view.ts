export { questionSchema, questionSourceSchema } from '@rag/api-contract'

import type { WatchedQuestion } from '@rag/questions'

/** The answer as clients see it (internal ids left out). */
export function questionView(question: WatchedQuestion) {
  return {
    id: question.id,
    status: question.status,
    question: question.question,
    options: question.options,
    answer: question.answer,
    provisional: question.provisional,
    queue: question.queue ?? null,
    refused: question.refused,
    citations: question.citations,
    sources: question.sources.map(({ chunkId: _chunkId, ...source }) => source),
    degraded: question.degraded,
    /** RAG-Fusion: the rephrasings that were searched besides the question. */
    queries: question.queries,
    conversationId: question.conversationId,
    searchQuery: question.searchQuery,
    timings: question.timings,
    usage: question.usage,
    error: question.error,
    createdAt: question.createdAt,
    // A turn of a thread is kept as long as the thread ('infinity' in the database).
    expiresAt: String(question.expiresAt),
  }
}

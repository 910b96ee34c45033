import { z } from '@hono/zod-openapi'
import { ANSWER_MODES, QUESTION_STATUSES, type QuestionRecord } from '@rag/questions'
import { SEARCH_MODES } from '@rag/retrieval'

export const questionSourceSchema = z
  .object({
    rank: z.number().openapi({ description: 'The answer cites this passage as [rank]' }),
    sourceId: z.string().openapi({ example: 'faq.csv:r12' }),
    documentId: z.string(),
    title: z.string(),
    score: z.number().openapi({ description: 'Evidence 0..1: reranker relevance, else term coverage' }),
    retrievalScore: z.number(),
    text: z.string(),
    parentText: z.string(),
    heading: z.string().nullable(),
  })
  .openapi('QuestionSource')

export const questionSchema = z
  .object({
    id: z.string(),
    status: z.enum(QUESTION_STATUSES),
    question: z.string(),
    options: z.object({
      topK: z.number(),
      mode: z.enum(SEARCH_MODES),
      fusion: z.boolean(),
      rerank: z.boolean(),
      answer: z.enum(ANSWER_MODES),
      collection: z.string().optional(),
      parents: z.boolean(),
    }),
    answer: z.string().nullable(),
    refused: z.boolean().nullable().openapi({ description: 'True when the documents hold no answer' }),
    citations: z.array(z.object({ marker: z.number(), sourceId: z.string() })),
    sources: z.array(questionSourceSchema),
    degraded: z.array(z.string()).openapi({ description: 'Capabilities asked for that were unavailable' }),
    queries: z.array(z.string()).nullable().openapi({ description: 'RAG-Fusion: the rephrasings searched' }),
    timings: z.record(z.string(), z.number()),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }).nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .openapi('Question')

/** The answer as clients see it (internal ids left out). */
export function questionView(question: QuestionRecord) {
  return {
    id: question.id,
    status: question.status,
    question: question.question,
    options: question.options,
    answer: question.answer,
    refused: question.refused,
    citations: question.citations,
    sources: question.sources.map(({ chunkId: _chunkId, ...source }) => source),
    degraded: question.degraded,
    /** RAG-Fusion: the rephrasings that were searched besides the question. */
    queries: question.queries,
    timings: question.timings,
    usage: question.usage,
    error: question.error,
    createdAt: question.createdAt,
    expiresAt: question.expiresAt,
  }
}

import { ANSWER_MODES, type AnswerMode } from '@rag/api-contract/enums'
import type { ModelsSection, RetrievalSection } from '@rag/config'
import { SEARCH_MODES } from '@rag/retrieval'
import { z } from 'zod'

export { ANSWER_MODES, type AnswerMode }

export const MAX_QUESTION_CHARS = 2000

/** What a client may ask for; anything else is refused by name (a typo should not be ignored). */
export const askOptionsSchema = z
  .object({
    /** Passages the answer is built from (and sources returned). */
    topK: z.number().int().min(1).max(20),
    mode: z.enum(SEARCH_MODES),
    /** RAG-Fusion: the LLM rephrases the question and every phrasing is searched. */
    fusion: z.boolean(),
    rerank: z.boolean(),
    answer: z.enum(ANSWER_MODES),
    collection: z.string().min(1).max(200),
    /** Small-to-large: the parent section, not just the matched chunk, goes to the LLM. */
    parents: z.boolean(),
    /** The generated answer's length and randomness (LLM_MAX_TOKENS and LLM_TEMPERATURE by default). */
    maxTokens: z.number().int().min(1).max(8192),
    temperature: z.number().min(0).max(2),
  })
  .partial()
  .strict()

export const askRequestSchema = z
  .object({
    question: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`),
    options: askOptionsSchema.default({}),
  })
  .strict()

export type AskOptions = z.output<typeof askOptionsSchema>
export type AskRequest = z.output<typeof askRequestSchema>

export interface QuestionOptions {
  topK: number
  mode: (typeof SEARCH_MODES)[number]
  fusion: boolean
  rerank: boolean
  answer: AnswerMode
  collection?: string
  parents: boolean
  maxTokens?: number
  temperature?: number
}

/** The configured models, as far as they decide a question's default options. */
export type AnsweringModels = Pick<ModelsSection, 'reranker' | 'llm'> &
  Partial<Pick<ModelsSection, 'rerankByDefault'>>

/**
 * The options as the pipeline runs them, stored with the question. Defaults follow the installation:
 * with RERANKER_MODEL=none (or RERANK_BY_DEFAULT off) no reranking, with LLM_MODEL=none extractive
 * answers (asking for them anyway works and says `degraded`).
 */
export function resolveOptions(
  options: AskOptions,
  retrieval: RetrievalSection,
  models: AnsweringModels,
): QuestionOptions {
  return {
    topK: options.topK ?? retrieval.rerankTopK,
    mode: options.mode ?? 'hybrid',
    fusion: options.fusion ?? false,
    rerank: options.rerank ?? (models.reranker !== null && models.rerankByDefault !== false),
    answer: options.answer ?? (models.llm !== null ? 'generate' : 'extractive'),
    parents: options.parents ?? true,
    ...(options.collection ? { collection: options.collection } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  }
}

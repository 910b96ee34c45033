import type { AnswerMode, AskOptions, SearchMode } from '@rag/api-contract'
import type { ModelsSection, RetrievalSection } from '@rag/config'

// The request's options are the API contract's (askOptionsSchema); what is kept here is how they
// are resolved against the installation.

export interface QuestionOptions {
  topK: number
  mode: SearchMode
  fusion: boolean
  rerank: boolean
  answer: AnswerMode
  collection?: string
  /**
   * The collections the asker may read (its key's grants), set by the gateway, never by the
   * request: retrieval reads nothing else. Absent: every collection.
   */
  within?: string[]
  /**
   * Batch work (the evaluation), set by its runner, never by a request: its answers wait behind
   * every person's in the LLM's line.
   */
  batch?: boolean
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

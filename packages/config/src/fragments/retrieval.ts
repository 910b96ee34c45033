import { z } from 'zod'
import { defineFragment } from '../define-config.ts'
import { decimal, integer, oneOf } from '../env-values.ts'

export interface RetrievalSection {
  searchK: number
  rerankTopK: number
  /** Hybrid search: the vector ranking's weight when the two rankings are merged (FUSION_ALPHA). */
  hybridAlpha: number
  rrfK: number
  /** Refusal below this answerability probability (the fitted judgement over the word signals), when nothing reranked. */
  refusalThreshold: number
  /** Refusal below this best reranker probability (0..1), when the cross-encoder scored. */
  rerankRefusalThreshold: number
  questionTtlSeconds: number
  questionTimeoutSeconds: number
  questionReconcileMs: number
  bm25K1: number
  bm25B: number
  /** Synonyms the question's words are also searched as: Sudachi's dictionary and each collection's own, or none. */
  synonyms: 'sudachi' | 'off'
}

export const retrieval = defineFragment({
  shape: {
    // Candidates fetched from each of vector and keyword search.
    SEARCH_K: integer(10, { min: 1, max: 500 }),
    // Passages kept after reranking and handed to the LLM.
    RERANK_TOP_K: integer(3, { min: 1, max: 100 }),
    // BM25 term-frequency saturation and length normalisation of keyword search (k1 0.9 measured
    // best with passage scoring on JaQuAD, SQuAD and SciFact: pnpm bench relevance).
    BM25_K1: decimal(0.9, { min: 0, max: 10 }),
    BM25_B: decimal(0.75, { min: 0, max: 1 }),
    // Keyword search also looks for the question's words through synonyms, at a lower weight:
    // Sudachi's synonym dictionary (sudachi-synonyms-dictionary, loaded once per process, ~150 MB)
    // and each collection's own rules (PUT /collections/{name}/synonyms); off: the words as typed.
    SYNONYMS: oneOf(['sudachi', 'off'] as const, 'sudachi'),
    // Hybrid search: weight of the vector ranking when it is merged with the keyword one by
    // reciprocal rank fusion (1 - alpha goes to keyword). Not RAG-Fusion (the ask option `fusion`).
    FUSION_ALPHA: decimal(0.5, { min: 0, max: 1 }),
    // k of reciprocal rank fusion: larger flattens the difference between ranks.
    RRF_K: integer(60, { min: 1, max: 10000 }),
    // Refusal without calling the LLM, judged on one of two scales. When nothing reranked: the
    // probability that the passages answer, by the judgement fitted over their word signals
    // (packages/questions/src/answerability-model.json, `pnpm eval --fit-refusal`), whose 0.5 is
    // fitted to refuse at most 5% of any training set's answerable questions.
    REFUSAL_THRESHOLD: decimal(0.5, { min: 0, max: 1 }),
    // The reranker's relevance probability when it scored: a starting point, to calibrate with
    // `pnpm eval --without-gold 0.5 --configs hybrid+rerank` once the reranker is downloaded.
    RERANK_REFUSAL_THRESHOLD: decimal(0.1, { min: 0, max: 1 }),
    // How long finished answers stay retrievable by id.
    QUESTION_TTL_SECONDS: integer(86400, { min: 60 }),
    // A question with no progress for this long (a stage's workers all gone) is failed with the stage named.
    QUESTION_TIMEOUT_SECONDS: integer(600, { min: 5, max: 86400 }),
    // A question that has not moved for this long gets its next job again (Redis lost it).
    QUESTION_RECONCILE_SECONDS: integer(15, { min: 1, max: 3600 }),
  },
  check: (env, report) => {
    if (env.RERANK_TOP_K > env.SEARCH_K) {
      report('RERANK_TOP_K', `must not exceed SEARCH_K (${env.SEARCH_K}), got ${env.RERANK_TOP_K}`)
    }
  },
  read: (env): RetrievalSection => ({
    searchK: env.SEARCH_K,
    rerankTopK: env.RERANK_TOP_K,
    hybridAlpha: env.FUSION_ALPHA,
    rrfK: env.RRF_K,
    refusalThreshold: env.REFUSAL_THRESHOLD,
    rerankRefusalThreshold: env.RERANK_REFUSAL_THRESHOLD,
    questionTtlSeconds: env.QUESTION_TTL_SECONDS,
    questionTimeoutSeconds: env.QUESTION_TIMEOUT_SECONDS,
    questionReconcileMs: env.QUESTION_RECONCILE_SECONDS * 1000,
    bm25K1: env.BM25_K1,
    bm25B: env.BM25_B,
    synonyms: env.SYNONYMS,
  }),
})

/** The settings with no variables set (tests and tools that must not depend on the environment). */
export const retrievalDefaults = (): RetrievalSection => retrieval.read(z.object(retrieval.shape).parse({}))

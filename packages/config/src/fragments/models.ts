import { availableParallelism } from 'node:os'
import { defineFragment } from '../define-config.ts'
import { boolean, integer, text } from '../env-values.ts'

/** The value that switches a model off (keyword retrieval, extractive answers). */
export const NO_MODEL = 'none'

export interface EmbeddingSection {
  /** null: no embedding model, chunks are stored for keyword search only. */
  model: string | null
  dim: number
}

export interface ModelsSection {
  embedding: EmbeddingSection
  reranker: string | null
  llm: string | null
  dir: string
  allowDownload: boolean
  /** ONNX intra-op threads per model session (embedder, reranker). */
  onnxThreads: number
}

const orNull = (name: string) => (name.toLowerCase() === NO_MODEL ? null : name)

export const models = defineFragment({
  shape: {
    // transformers.js feature-extraction model (Hub id or local folder under MODELS_DIR); "none" = keyword only.
    EMBEDDING_MODEL: text('Xenova/multilingual-e5-small'),
    // Its output size; the database column follows it and refuses to mix sizes.
    EMBEDDING_DIM: integer(384, { min: 2, max: 4096 }),
    // transformers.js cross-encoder for reranking; "none" = keep retrieval order.
    RERANKER_MODEL: text('onnx-community/bge-reranker-v2-m3-ONNX'),
    // GGUF for node-llama-cpp: a file under MODELS_DIR, a path, or an hf: URI; "none" = no generation.
    LLM_MODEL: text('hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M'),
    // Where downloaded models are kept.
    MODELS_DIR: text('models'),
    // false: never reach for the network; only models already under MODELS_DIR are used.
    ALLOW_MODEL_DOWNLOAD: boolean(true),
    // Intra-op threads of each ONNX session (embedder, reranker); 0 = a quarter of the cores, at
    // least 1, so the embed and rerank workers and llama.cpp together do not oversubscribe the CPU.
    ONNX_THREADS: integer(0, { min: 0, max: 256 }),
  },
  read: (env): ModelsSection => ({
    embedding: { model: orNull(env.EMBEDDING_MODEL), dim: env.EMBEDDING_DIM },
    reranker: orNull(env.RERANKER_MODEL),
    llm: orNull(env.LLM_MODEL),
    dir: env.MODELS_DIR,
    allowDownload: env.ALLOW_MODEL_DOWNLOAD,
    onnxThreads: env.ONNX_THREADS || Math.max(1, Math.floor(availableParallelism() / 4)),
  }),
})

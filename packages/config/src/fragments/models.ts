import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { defineFragment } from '../define-config.ts'
import { boolean, integer, oneOf, text } from '../env-values.ts'
import { type EmbeddingRecipe, embeddingRecipe } from '../model-presets.ts'

/** The value that switches a model off (keyword retrieval, extractive answers). */
export const NO_MODEL = 'none'

export interface EmbeddingSection {
  /** null: no embedding model, chunks are stored for keyword search only. */
  model: string | null
  dim: number
  /** Pooling and prefixes: the model family's (see embeddingRecipe), or as set. */
  recipe: EmbeddingRecipe
  /** ONNX weights to load: `q8` (model_quantized.onnx), `fp32` (model.onnx), … */
  dtype: OnnxDtype
}

export const ONNX_DTYPES = ['q8', 'fp32', 'fp16', 'int8', 'uint8', 'q4', 'bnb4'] as const
export type OnnxDtype = (typeof ONNX_DTYPES)[number]

export interface ModelsSection {
  embedding: EmbeddingSection
  reranker: string | null
  rerankerDtype: OnnxDtype
  llm: string | null
  dir: string
  allowDownload: boolean
  /** ONNX intra-op threads per model session (embedder, reranker). */
  onnxThreads: number
  /** The model hub (or a mirror of it) downloads come from, ending with "/". */
  endpoint: string
}

const orNull = (name: string) => (name.toLowerCase() === NO_MODEL ? null : name)

export const models = defineFragment({
  shape: {
    // transformers.js feature-extraction model (Hub id or local folder under MODELS_DIR); "none" = keyword only.
    EMBEDDING_MODEL: text('Xenova/multilingual-e5-small'),
    // Its output size; the database column follows it and refuses to mix sizes.
    EMBEDDING_DIM: integer(384, { min: 2, max: 4096 }),
    // Pooling (mean, cls) and query / passage prefixes: by default the model family's (e5:
    // "query: " / "passage: "; ruri-v3: 検索クエリ: / 検索文書: ; bge-m3: cls); set them for others.
    EMBEDDING_POOLING: oneOf(['auto', 'mean', 'cls'], 'auto'),
    // (Not trimmed: a prefix usually ends with a space.)
    EMBEDDING_QUERY_PREFIX: z.string().optional(),
    EMBEDDING_PASSAGE_PREFIX: z.string().optional(),
    // Which ONNX weights: q8 = onnx/model_quantized.onnx, fp32 = onnx/model.onnx (exports without a
    // quantized file), fp16, int8, uint8, q4, bnb4.
    EMBEDDING_DTYPE: oneOf(ONNX_DTYPES, 'q8'),
    // transformers.js cross-encoder for reranking; "none" = keep retrieval order.
    RERANKER_MODEL: text('onnx-community/bge-reranker-v2-m3-ONNX'),
    // GGUF for node-llama-cpp: a file under MODELS_DIR, a path, or an hf: URI; "none" = no generation.
    RERANKER_DTYPE: oneOf(ONNX_DTYPES, 'q8'),
    LLM_MODEL: text('hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M'),
    // Where downloaded models are kept.
    MODELS_DIR: text('models'),
    // The Hugging Face hub, or a mirror that serves the same paths ({model}/resolve/main/{file}),
    // for every model download (transformers.js and node-llama-cpp alike).
    MODEL_ENDPOINT: text('https://huggingface.co/'),
    // false: never reach for the network; only models already under MODELS_DIR are used.
    ALLOW_MODEL_DOWNLOAD: boolean(true),
    // Intra-op threads of each ONNX session (embedder, reranker); 0 = a quarter of the cores, at
    // least 1, so the embed and rerank workers and llama.cpp together do not oversubscribe the CPU.
    ONNX_THREADS: integer(0, { min: 0, max: 256 }),
  },
  read: (env): ModelsSection => ({
    embedding: {
      model: orNull(env.EMBEDDING_MODEL),
      dim: env.EMBEDDING_DIM,
      recipe: embeddingRecipe(env.EMBEDDING_MODEL, {
        pooling: env.EMBEDDING_POOLING === 'auto' ? undefined : env.EMBEDDING_POOLING,
        queryPrefix: env.EMBEDDING_QUERY_PREFIX || undefined,
        passagePrefix: env.EMBEDDING_PASSAGE_PREFIX || undefined,
      }),
      dtype: env.EMBEDDING_DTYPE,
    },
    reranker: orNull(env.RERANKER_MODEL),
    rerankerDtype: env.RERANKER_DTYPE,
    llm: orNull(env.LLM_MODEL),
    dir: env.MODELS_DIR,
    allowDownload: env.ALLOW_MODEL_DOWNLOAD,
    onnxThreads: env.ONNX_THREADS || Math.max(1, Math.floor(availableParallelism() / 4)),
    endpoint: env.MODEL_ENDPOINT.endsWith('/') ? env.MODEL_ENDPOINT : `${env.MODEL_ENDPOINT}/`,
  }),
})

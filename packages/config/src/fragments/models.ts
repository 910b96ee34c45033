import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { defineFragment } from '../define-config.ts'
import { boolean, integer, oneOf, text } from '../env-values.ts'
import { type EmbeddingRecipe, embeddingRecipe } from '../model-presets.ts'
import { findPreset } from '../model-registry.ts'

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

/**
 * A prefix ending in a colon without the space after it is what a .env file leaves of an unquoted
 * "query: " (it trims values): refused at start, saying to quote it, rather than embedding every
 * text a little off the way the model was trained.
 */
const embeddingPrefix = () =>
  z
    .string()
    .optional()
    .refine((value) => value === undefined || !/[:：]$/.test(value), {
      message:
        'ends with a colon but no space: a .env file drops the trailing space of an unquoted value; quote it (e.g. "query: ")',
    })

export const ONNX_DTYPES = ['q8', 'fp32', 'fp16', 'int8', 'uint8', 'q4', 'bnb4'] as const
export type OnnxDtype = (typeof ONNX_DTYPES)[number]

export interface ModelsSection {
  embedding: EmbeddingSection
  reranker: string | null
  rerankerDtype: OnnxDtype
  /** Whether questions are reranked unless they say otherwise (RERANK_BY_DEFAULT). */
  rerankByDefault: boolean
  llm: string | null
  dir: string
  allowDownload: boolean
  /** ONNX intra-op threads per model session (embedder, reranker). */
  onnxThreads: number
  /** The model hub (or a mirror of it) downloads come from, ending with "/". */
  endpoint: string
}

const orNull = (name: string) => (name.toLowerCase() === NO_MODEL ? null : name)

const presetDim = (model: string) => {
  const preset = findPreset(model)
  // No model (keyword only): the column is never used; 384 keeps the schema as it always was.
  return preset?.task === 'embedding' ? preset.dim : 384
}

/** An explicit dtype, else the preset's weights, else q8 (transformers.js's own default). */
const dtypeOf = (model: string, dtype: 'auto' | OnnxDtype): OnnxDtype => {
  if (dtype !== 'auto') return dtype
  const preset = findPreset(model)
  return preset && preset.task !== 'generation' ? preset.weights.dtype : 'q8'
}

export const models = defineFragment({
  shape: {
    // transformers.js feature-extraction model (Hub id or local folder under MODELS_DIR); "none" = keyword only.
    EMBEDDING_MODEL: text('Xenova/multilingual-e5-small'),
    // Its output size; the database column follows it and refuses to mix sizes. 0 = the preset's
    // (see the model table in docs/models.md); required for a model that is not a preset.
    EMBEDDING_DIM: integer(0, { min: 0, max: 4096 }),
    // Pooling (mean, cls) and query / passage prefixes: by default the model family's (e5:
    // "query: " / "passage: "; ruri-v3: 検索クエリ: / 検索文書: ; bge-m3: cls); set them for others.
    EMBEDDING_POOLING: oneOf(['auto', 'mean', 'cls'], 'auto'),
    // Written before each search query. Not trimmed: a prefix usually ends with a space, which a
    // .env file drops unless the value is quoted (EMBEDDING_QUERY_PREFIX="query: ").
    EMBEDDING_QUERY_PREFIX: embeddingPrefix(),
    // Written before each passage indexed (quote it in .env, as above: "passage: ").
    EMBEDDING_PASSAGE_PREFIX: embeddingPrefix(),
    // Which ONNX weights: q8 = onnx/model_quantized.onnx, fp32 = onnx/model.onnx (exports without a
    // quantized file), fp16, int8, uint8, q4, bnb4; auto = the preset's, else q8.
    EMBEDDING_DTYPE: oneOf(['auto', ...ONNX_DTYPES], 'auto'),
    // transformers.js cross-encoder for reranking; "none" = keep retrieval order. The default is
    // the one measured to rerank a top-10 in about 2 s on one core (bge-reranker-v2-m3: 28 s).
    RERANKER_MODEL: text('hotchpotch/japanese-reranker-xsmall-v2'),
    RERANKER_DTYPE: oneOf(['auto', ...ONNX_DTYPES], 'auto'),
    // Rerank questions that do not say: auto = only with 4 or more cores (on 2 cores a rerank
    // costs seconds per question while ingestion also needs the CPU); a question's own
    // `rerank: true` always reranks.
    RERANK_BY_DEFAULT: oneOf(['auto', 'true', 'false'], 'auto'),
    // GGUF for node-llama-cpp: a file under MODELS_DIR, a path, or an hf: URI; "none" = no generation.
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
  check: (env, report) => {
    const preset = findPreset(env.EMBEDDING_MODEL)
    if (env.EMBEDDING_DIM === 0 && preset?.task !== 'embedding' && orNull(env.EMBEDDING_MODEL))
      report('EMBEDDING_DIM', `required for ${env.EMBEDDING_MODEL} (not a preset): set its output size`)
    if (env.EMBEDDING_DIM === 1) report('EMBEDDING_DIM', 'must be at least 2, got 1')
  },
  read: (env): ModelsSection => ({
    embedding: {
      model: orNull(env.EMBEDDING_MODEL),
      dim: env.EMBEDDING_DIM || presetDim(env.EMBEDDING_MODEL),
      recipe: embeddingRecipe(env.EMBEDDING_MODEL, {
        pooling: env.EMBEDDING_POOLING === 'auto' ? undefined : env.EMBEDDING_POOLING,
        queryPrefix: env.EMBEDDING_QUERY_PREFIX || undefined,
        passagePrefix: env.EMBEDDING_PASSAGE_PREFIX || undefined,
      }),
      dtype: dtypeOf(env.EMBEDDING_MODEL, env.EMBEDDING_DTYPE),
    },
    reranker: orNull(env.RERANKER_MODEL),
    rerankerDtype: dtypeOf(env.RERANKER_MODEL, env.RERANKER_DTYPE),
    rerankByDefault:
      env.RERANK_BY_DEFAULT === 'auto' ? availableParallelism() >= 4 : env.RERANK_BY_DEFAULT === 'true',
    llm: orNull(env.LLM_MODEL),
    dir: env.MODELS_DIR,
    allowDownload: env.ALLOW_MODEL_DOWNLOAD,
    onnxThreads: env.ONNX_THREADS || Math.max(1, Math.floor(availableParallelism() / 4)),
    endpoint: env.MODEL_ENDPOINT.endsWith('/') ? env.MODEL_ENDPOINT : `${env.MODEL_ENDPOINT}/`,
  }),
})

/** The settings with no variables set (tests and tools that must not depend on the environment). */
export const modelsDefaults = (): ModelsSection => models.read(z.object(models.shape).parse({}))

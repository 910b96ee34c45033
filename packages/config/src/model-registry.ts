import type { EmbeddingRecipe } from './model-presets.ts'

/** A transformer encoder's dimensions, as in its config.json (for shape-true benchmark models). */
export interface EncoderArchitecture {
  layers: number
  hidden: number
  heads: number
  intermediate: number
  vocab: number
  maxPositions: number
  feedForward: 'gelu' | 'gated-gelu'
}

/** A decoder LLM's dimensions, as in its GGUF metadata. */
export interface DecoderArchitecture {
  family: string
  layers: number
  hidden: number
  heads: number
  kvHeads: number
  feedForward: number
  vocab: number
  context: number
}

interface PresetFacts {
  /** What users set (EMBEDDING_MODEL, RERANKER_MODEL, LLM_MODEL). */
  id: string
  /** Download size of the files used. */
  megabytes: number
  licence: string
  languages: string
  /** sha256 of files whose published bytes are pinned here ({path in the repository: hash}). */
  sha256: Record<string, string>
}

export interface EncoderPreset extends PresetFacts {
  /** ONNX weights file under onnx/ (transformers.js `model_file_name` and dtype). */
  weights: { file: string; dtype: 'q8' | 'fp32' }
  /**
   * The repository publishes no ONNX weights (safetensors only): they are exported once with
   * optimum for this task, and placed under onnx/ (`pnpm models pull` says how).
   */
  onnxExport?: 'feature-extraction' | 'text-classification'
  maxTokens: number
  architecture: EncoderArchitecture
}

export interface EmbedderPreset extends EncoderPreset {
  task: 'embedding'
  dim: number
  recipe: EmbeddingRecipe
}

export interface RerankerPreset extends EncoderPreset {
  task: 'reranking'
}

export interface LlmPreset extends PresetFacts {
  task: 'generation'
  /** The GGUF file name in the repository of the hf: URI. */
  file: string
  architecture: DecoderArchitecture
}

export type ModelPreset = EmbedderPreset | RerankerPreset | LlmPreset

const E5 = { pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' } as const
const RURI = { pooling: 'mean', queryPrefix: '検索クエリ: ', passagePrefix: '検索文書: ' } as const
const q8 = { file: 'model_quantized', dtype: 'q8' } as const
const fp32 = { file: 'model', dtype: 'fp32' } as const

// Architectures (config.json of each model).
const XLMR_LARGE = {
  layers: 24,
  hidden: 1024,
  heads: 16,
  intermediate: 4096,
  vocab: 250002,
  maxPositions: 8194,
  feedForward: 'gelu',
} as const
const XLMR_BASE = {
  layers: 12,
  hidden: 768,
  heads: 12,
  intermediate: 3072,
  vocab: 250002,
  maxPositions: 514,
  feedForward: 'gelu',
} as const
const E5_SMALL = {
  layers: 12,
  hidden: 384,
  heads: 12,
  intermediate: 1536,
  vocab: 250037,
  maxPositions: 512,
  feedForward: 'gelu',
} as const
const MODERNBERT_JA_30M = {
  layers: 10,
  hidden: 256,
  heads: 4,
  intermediate: 1024,
  vocab: 102400,
  maxPositions: 8192,
  feedForward: 'gated-gelu',
} as const
const MODERNBERT_JA_130M = {
  layers: 19,
  hidden: 512,
  heads: 8,
  intermediate: 2048,
  vocab: 102400,
  maxPositions: 8192,
  feedForward: 'gated-gelu',
} as const
const MINILM_L12_MULTILINGUAL = {
  layers: 12,
  hidden: 384,
  heads: 12,
  intermediate: 1536,
  vocab: 250002,
  maxPositions: 514,
  feedForward: 'gelu',
} as const

/**
 * The models this product knows by id: what each needs (prefixes, pooling, weights file), what it
 * costs (download, architecture for `pnpm bench models`) and its licence. Pinned hashes are the
 * published files' (Git LFS sha256); files without one are checked against the hash the hub
 * reports when downloading. Any other id works with explicit settings.
 */
export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    task: 'embedding',
    id: 'Xenova/multilingual-e5-small',
    dim: 384,
    recipe: E5,
    weights: q8,
    maxTokens: 512,
    megabytes: 118,
    licence: 'MIT',
    languages: '~100 incl. ja, en',
    architecture: E5_SMALL,
    sha256: {
      'onnx/model_quantized.onnx': 'f80102d3f2a1229f387d3c81909990d8945513e347b0eab049f7de3c6f98c193',
      'tokenizer.json': '0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39',
    },
  },
  {
    task: 'embedding',
    id: 'Xenova/multilingual-e5-base',
    dim: 768,
    recipe: E5,
    weights: q8,
    maxTokens: 512,
    megabytes: 280,
    licence: 'MIT',
    languages: '~100 incl. ja, en',
    architecture: XLMR_BASE,
    sha256: {},
  },
  {
    task: 'embedding',
    id: 'Xenova/multilingual-e5-large',
    dim: 1024,
    recipe: E5,
    weights: q8,
    maxTokens: 512,
    megabytes: 562,
    licence: 'MIT',
    languages: '~100 incl. ja, en',
    architecture: { ...XLMR_LARGE, maxPositions: 514 },
    sha256: {},
  },
  {
    task: 'embedding',
    id: 'Xenova/bge-m3',
    dim: 1024,
    recipe: { pooling: 'cls', queryPrefix: '', passagePrefix: '' },
    weights: q8,
    maxTokens: 8192,
    megabytes: 570,
    licence: 'MIT',
    languages: '~100 incl. ja, en',
    architecture: XLMR_LARGE,
    sha256: {},
  },
  {
    task: 'embedding',
    id: 'cl-nagoya/ruri-v3-30m',
    dim: 256,
    recipe: RURI,
    weights: fp32,
    onnxExport: 'feature-extraction',
    maxTokens: 8192,
    megabytes: 150,
    licence: 'Apache-2.0',
    languages: 'ja',
    architecture: MODERNBERT_JA_30M,
    sha256: {},
  },
  {
    task: 'embedding',
    id: 'cl-nagoya/ruri-v3-130m',
    dim: 512,
    recipe: RURI,
    weights: fp32,
    onnxExport: 'feature-extraction',
    maxTokens: 8192,
    megabytes: 530,
    licence: 'Apache-2.0',
    languages: 'ja',
    architecture: MODERNBERT_JA_130M,
    sha256: {},
  },
  {
    task: 'reranking',
    id: 'onnx-community/bge-reranker-v2-m3-ONNX',
    weights: q8,
    maxTokens: 512,
    megabytes: 571,
    licence: 'Apache-2.0',
    languages: '~100 incl. ja, en',
    architecture: XLMR_LARGE,
    sha256: {},
  },
  {
    task: 'reranking',
    id: 'hotchpotch/japanese-reranker-xsmall-v2',
    weights: fp32,
    maxTokens: 512,
    megabytes: 150,
    licence: 'MIT',
    languages: 'ja',
    architecture: MODERNBERT_JA_30M,
    sha256: {},
  },
  {
    task: 'reranking',
    id: 'cross-encoder/mmarco-mMiniLMv2-L12-H384-v1',
    weights: fp32,
    maxTokens: 512,
    megabytes: 470,
    licence: 'Apache-2.0',
    languages: '~100 incl. ja, en',
    architecture: MINILM_L12_MULTILINGUAL,
    sha256: {},
  },
  {
    task: 'generation',
    id: 'hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
    file: 'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf',
    megabytes: 986,
    licence: 'Apache-2.0',
    languages: 'multilingual incl. ja, en',
    architecture: {
      family: 'qwen2',
      layers: 28,
      hidden: 1536,
      heads: 12,
      kvHeads: 2,
      feedForward: 8960,
      vocab: 151936,
      context: 32768,
    },
    sha256: {
      'Qwen2.5-1.5B-Instruct-Q4_K_M.gguf': '50961d9b7d3b89e46be230528fc66d38bbdda8ac3748323dd34f129a714124fc',
    },
  },
  {
    task: 'generation',
    id: 'hf:bartowski/Qwen2.5-3B-Instruct-GGUF:Q4_K_M',
    file: 'Qwen2.5-3B-Instruct-Q4_K_M.gguf',
    megabytes: 1930,
    licence: 'Qwen Research (non-commercial)',
    languages: 'multilingual incl. ja, en',
    architecture: {
      family: 'qwen2',
      layers: 36,
      hidden: 2048,
      heads: 16,
      kvHeads: 2,
      feedForward: 11008,
      vocab: 151936,
      context: 32768,
    },
    sha256: {},
  },
  {
    task: 'generation',
    id: 'hf:mmnga/gemma-2-2b-jpn-it-gguf:Q4_K_M',
    file: 'gemma-2-2b-jpn-it-Q4_K_M.gguf',
    megabytes: 1710,
    licence: 'Gemma',
    languages: 'ja, en',
    architecture: {
      family: 'gemma2',
      layers: 26,
      hidden: 2304,
      heads: 8,
      kvHeads: 4,
      feedForward: 9216,
      vocab: 256000,
      context: 8192,
    },
    sha256: {},
  },
  {
    task: 'generation',
    id: 'hf:Qwen/Qwen3-1.7B-GGUF:Q8_0',
    file: 'Qwen3-1.7B-Q8_0.gguf',
    megabytes: 1830,
    licence: 'Apache-2.0',
    languages: 'multilingual incl. ja, en',
    architecture: {
      family: 'qwen3',
      layers: 28,
      hidden: 2048,
      heads: 16,
      kvHeads: 8,
      feedForward: 6144,
      vocab: 151936,
      context: 32768,
    },
    sha256: {},
  },
]

/** The preset of a model id, if it is one this product knows. */
export function findPreset(id: string): ModelPreset | undefined {
  return MODEL_PRESETS.find((preset) => preset.id === id)
}

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { loadTransformersEmbedder } from '@rag/embeddings'
import { findSharedTokenizer } from '@rag/embeddings/testing'
import { loadLlamaGenerator } from '@rag/llm'
import { createLogger } from '@rag/log'
import { loadCrossEncoder } from '@rag/reranking'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { writeDecoderGguf } from './decoder-gguf.ts'
import { shapeTrueEncoder } from './shape-true-cache.ts'

// The generators at toy sizes: what `pnpm bench models` writes must load and run in the real
// runtimes (transformers.js / onnxruntime, node-llama-cpp), or its figures measure nothing.

const tests = testConfig.parse(processEnvironment()).test
const { dir: tokenizerDir, found } = await findSharedTokenizer(tests.sharedDir)
await findTestAsset(tests, 'models/gguf/stories260K.gguf')
const logger = createLogger({ name: 'test', level: 'silent' })
let cacheDir: string
const architecture = {
  layers: 2,
  hidden: 64,
  heads: 4,
  intermediate: 128,
  vocab: 30522,
  maxPositions: 512,
  feedForward: 'gated-gelu' as const,
}
const preset = (id: string, dtype: 'q8' | 'fp32') => ({
  id,
  megabytes: 1,
  licence: 'test',
  languages: 'ja',
  sha256: {},
  weights: { file: dtype === 'q8' ? 'model_quantized' : 'model', dtype },
  maxTokens: 512,
  architecture,
})

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'rag-shapes-'))
})
afterAll(async () => {
  await rm(cacheDir, { recursive: true, force: true })
})

it.skipIf(!found)('a quantized encoder runs as an embedder with the preset size', async () => {
  const embedding = {
    ...preset('test/embedder', 'q8'),
    task: 'embedding' as const,
    dim: 64,
    recipe: { pooling: 'mean' as const, queryPrefix: '', passagePrefix: '' },
  }
  const { modelsDir, model } = await shapeTrueEncoder({
    cacheDir,
    preset: embedding,
    head: 'hidden-states',
    tokenizerDir,
  })
  const embedder = await loadTransformersEmbedder({ model, dim: 64, modelsDir, allowDownload: false, logger })
  const [vector] = await embedder.embedPassages(['保証期間は二年間です。'])
  expect(vector).toHaveLength(64)
  expect(vector?.every(Number.isFinite)).toBe(true)
  await embedder.close?.()
})

it.skipIf(!found)('an fp32 encoder with a classifier head runs as a reranker', async () => {
  const reranking = { ...preset('test/reranker', 'fp32'), task: 'reranking' as const }
  const { modelsDir, model } = await shapeTrueEncoder({
    cacheDir,
    preset: reranking,
    head: 'classifier',
    tokenizerDir,
  })
  const reranker = await loadCrossEncoder({ model, modelsDir, allowDownload: false, logger, dtype: 'fp32' })
  const scores = await reranker.score('保証期間は？', ['二年間です。', '充電は三時間です。'])
  expect(scores).toHaveLength(2)
  expect(scores.every((score) => score > 0 && score < 1)).toBe(true)
  await reranker.close()
})

it('a Qwen2-architecture GGUF loads in llama.cpp and generates', async () => {
  const path = join(cacheDir, 'toy-qwen2.gguf')
  await writeDecoderGguf(path, {
    family: 'qwen2',
    layers: 2,
    hidden: 64,
    heads: 4,
    kvHeads: 2,
    feedForward: 128,
    vocab: 4096,
    context: 512,
  })
  const generator = await loadLlamaGenerator({
    model: path,
    modelsDir: cacheDir,
    allowDownload: false,
    contextSize: 512,
    sequences: 1,
    threads: 1,
    logger,
  })
  // About one token per Japanese character, as the real vocabulary splits it (kana fit in this toy one).
  expect(generator.countTokens('ほしょうきかん')).toBe(8)
  const result = await generator.generate({
    system: 'test',
    prompt: '保証期間は？',
    maxTokens: 8,
    temperature: 0,
  })
  expect(result.completionTokens).toBeGreaterThan(0)
  await generator.close()
})

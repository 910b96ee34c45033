import { access, cp, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modelsCommandConfig, processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { findSharedTokenizer, writeTinyEmbeddingModel } from '@rag/embeddings/testing'
import { endlessGenerator, serveLlm } from '@rag/llm/testing'
import { createLogger } from '@rag/log'
import { type ModelHub, serveModelHub } from '@rag/model-download/testing'
import { writeTinyCrossEncoder } from '@rag/reranking/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runModelsCommand } from './models-command.ts'
import { captureLines } from './testing/capture-lines.ts'

// pnpm models against a model hub served on loopback (MODEL_ENDPOINT), with tiny models.

const { sharedDir } = testConfig.parse(processEnvironment()).test
const { dir: tokenizerDir, found } = await findSharedTokenizer(sharedDir)
const logger = createLogger({ name: 'test', level: 'silent' })
let hubDir: string
let modelsDir: string
let hub: ModelHub

beforeAll(async () => {
  hubDir = await mkdtemp(join(tmpdir(), 'rag-models-hub-'))
  modelsDir = await mkdtemp(join(tmpdir(), 'rag-models-dir-'))
  if (!found) return
  await writeTinyEmbeddingModel({ dir: join(hubDir, 'hub/tiny-embedder'), tokenizerDir, dim: 8 })
  await writeTinyCrossEncoder({ dir: join(hubDir, 'hub/tiny-reranker'), tokenizerDir })
  hub = await serveModelHub(hubDir)
})
afterAll(async () => {
  await hub?.close()
  await rm(hubDir, { recursive: true, force: true })
  await rm(modelsDir, { recursive: true, force: true })
})

const models = () =>
  modelsCommandConfig.parse({
    EMBEDDING_MODEL: 'hub/tiny-embedder',
    EMBEDDING_DIM: '8',
    RERANKER_MODEL: 'hub/tiny-reranker',
    LLM_MODEL: join(sharedDir, 'models/gguf/stories260K.gguf'),
    MODELS_DIR: modelsDir,
    MODEL_ENDPOINT: hub.endpoint,
  })

it.skipIf(!found)(
  'verify names what is missing and fails; pull fetches it from the endpoint; then all present',
  async () => {
    const before = captureLines()
    expect(await runModelsCommand('verify', models(), { output: before.output, logger })).toBe(1)
    expect(before.lines[0]).toMatch(
      /^embedding MISSING {2}hub\/tiny-embedder {2}missing config\.json, tokenizer\.json/,
    )
    expect(before.lines[1]).toMatch(/^reranker {2}MISSING {2}hub\/tiny-reranker/)
    expect(before.lines[2]).toMatch(/^llm {7}present {2}.*stories260K\.gguf/)
    expect(before.lines.at(-1)).toMatch(/^2 missing: run `pnpm models pull`/)

    const pulled = captureLines()
    expect(await runModelsCommand('pull', models(), { output: pulled.output, logger })).toBe(0)
    expect(pulled.lines.slice(0, 2).map((line) => line.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'embedding present hub/tiny-embedder',
      'reranker present hub/tiny-reranker',
    ])
    expect(hub.requested).toContain('/hub/tiny-reranker/resolve/main/onnx/model_quantized.onnx')

    const after = captureLines()
    expect(await runModelsCommand('verify', models(), { output: after.output, logger })).toBe(0)
  },
)

it.skipIf(!found)(
  'pull resumes a download cut halfway and refuses bytes that fail their checksum',
  async () => {
    const cutHub = await serveModelHub(hubDir, { cut: { suffix: 'model_quantized.onnx', bytes: 100_000 } })
    const dir = await mkdtemp(join(tmpdir(), 'rag-models-cut-'))
    try {
      const config = (model: string) =>
        modelsCommandConfig.parse({
          EMBEDDING_MODEL: model,
          EMBEDDING_DIM: '8',
          RERANKER_MODEL: 'none',
          LLM_MODEL: 'none',
          MODELS_DIR: dir,
          MODEL_ENDPOINT: cutHub.endpoint,
        })
      const pulled = captureLines()
      expect(
        await runModelsCommand('pull', config('hub/tiny-embedder'), { output: pulled.output, logger }),
      ).toBe(0)
      const weights = cutHub.requested.filter((line) => line.includes('/cdn/hub/tiny-embedder/onnx/'))
      expect(weights).toHaveLength(2)
      expect(weights[1]).toMatch(/bytes=\d+-$/)
      expect(pulled.lines[0]).toMatch(/^embedding present {2}hub\/tiny-embedder/)

      // A file whose bytes differ from the registry's pin (here: e5-small's published weights, served
      // as the tiny model's) is deleted and the pull fails saying why.
      await cp(join(hubDir, 'hub/tiny-embedder'), join(hubDir, 'Xenova/multilingual-e5-small'), {
        recursive: true,
      })
      const bad = captureLines()
      expect(
        await runModelsCommand('pull', config('Xenova/multilingual-e5-small'), {
          output: bad.output,
          logger,
        }),
      ).toBe(1)
      expect(bad.lines[0]).toMatch(
        /^pull Xenova\/multilingual-e5-small: .*tokenizer\.json: sha256 [0-9a-f]{64} but the registry pins 0b44a9d7[0-9a-f]{56}; the download was deleted/,
      )
      await expect(
        access(join(dir, 'Xenova/multilingual-e5-small/onnx/model_quantized.onnx')),
      ).rejects.toThrow()
    } finally {
      await cutHub.close()
      await rm(dir, { recursive: true, force: true })
    }
  },
)

it.skipIf(!found)(
  'one model that cannot be fetched does not stop the others; the pull says why',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-models-partial-'))
    try {
      const config = modelsCommandConfig.parse({
        EMBEDDING_MODEL: 'hub/not-on-the-hub',
        EMBEDDING_DIM: '8',
        RERANKER_MODEL: 'hub/tiny-reranker',
        LLM_MODEL: 'none',
        MODELS_DIR: dir,
        MODEL_ENDPOINT: hub.endpoint,
      })
      const pulled = captureLines()
      expect(await runModelsCommand('pull', config, { output: pulled.output, logger })).toBe(1)
      expect(pulled.lines[0]).toMatch(/^pull hub\/not-on-the-hub: .*config\.json: not on the hub \(404\)/)
      expect(pulled.lines).toContainEqual(expect.stringMatching(/^reranker {2}present {2}hub\/tiny-reranker/))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
)

it('an LLM on a server is checked on the server, not looked for as a GGUF', async () => {
  const server = await serveLlm(endlessGenerator(), { name: 'qwen2.5:1.5b' })
  try {
    const config = (model: string) =>
      modelsCommandConfig.parse({
        EMBEDDING_MODEL: 'none',
        RERANKER_MODEL: 'none',
        LLM_BACKEND: 'openai-compatible',
        LLM_BASE_URL: server.baseUrl,
        LLM_MODEL: model,
        MODELS_DIR: modelsDir,
      })
    const served = captureLines()
    expect(await runModelsCommand('verify', config('qwen2.5:1.5b'), { output: served.output, logger })).toBe(
      0,
    )
    expect(served.lines[0]).toMatch(/^llm {7}present {2}qwen2\.5:1\.5b {2}served by the LLM server {2}http/)
    const absent = captureLines()
    expect(await runModelsCommand('verify', config('qwen3:8b'), { output: absent.output, logger })).toBe(1)
    expect(absent.lines[0]).toMatch(
      /^llm {7}MISSING {2}qwen3:8b {2}not served \(.*has no model "qwen3:8b" \(it has: qwen2\.5:1\.5b\)/,
    )
  } finally {
    await server.close()
  }
})

it('lists a GGUF not downloaded yet as such, not as "download is disabled" when it is not', async () => {
  const config = (model: string, allow: string) =>
    modelsCommandConfig.parse({
      EMBEDDING_MODEL: 'none',
      RERANKER_MODEL: 'none',
      LLM_MODEL: model,
      MODELS_DIR: modelsDir,
      ALLOW_MODEL_DOWNLOAD: allow,
    })
  const lineOf = async (model: string, allow: string) => {
    const listed = captureLines()
    await runModelsCommand('list', config(model, allow), { output: listed.output, logger })
    return listed.lines[0]
  }
  expect(await lineOf('hf:someone/tiny-GGUF:Q4_K_M', 'true')).toMatch(
    /^llm {7}MISSING {2}hf:someone\/tiny-GGUF:Q4_K_M {2}missing \(not downloaded yet: `pnpm rag models pull` fetches it/,
  )
  expect(await lineOf('hf:someone/tiny-GGUF:Q4_K_M', 'false')).toMatch(
    /downloads are off \(ALLOW_MODEL_DOWNLOAD=false\): place the GGUF there/,
  )
  expect(await lineOf('not-here-yet.gguf', 'true')).toMatch(
    /missing \(not in .*: place the GGUF there \(LLM_MODEL names a file\)\)/,
  )
})

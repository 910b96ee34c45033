import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { createLogger } from '@rag/log'
import { type ModelHub, serveModelHub } from '@rag/model-download/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { findSharedTokenizer, writeTinyEmbeddingModel } from './testing/tiny-embedding-model.ts'
import { loadTransformersEmbedder } from './transformers-embedder.ts'

// MODEL_ENDPOINT points downloads at a hub served on loopback, as a mirror of the real one would be.

const logger = createLogger({ name: 'test', level: 'silent' })
const { dir: tokenizerDir, found } = await findSharedTokenizer(
  testConfig.parse(processEnvironment()).test.sharedDir,
)
let hubDir: string
let modelsDir: string
let hub: ModelHub

beforeAll(async () => {
  hubDir = await mkdtemp(join(tmpdir(), 'rag-hub-'))
  modelsDir = await mkdtemp(join(tmpdir(), 'rag-hub-models-'))
  if (!found) return
  await writeTinyEmbeddingModel({ dir: join(hubDir, 'mirror/tiny-embedder'), tokenizerDir, dim: 8 })
  hub = await serveModelHub(hubDir)
})
afterAll(async () => {
  await hub?.close()
  await rm(hubDir, { recursive: true, force: true })
  await rm(modelsDir, { recursive: true, force: true })
})

it.skipIf(!found)(
  'downloads a model from the configured endpoint into MODELS_DIR, then uses it offline',
  async () => {
    const model = 'mirror/tiny-embedder'
    const online = await loadTransformersEmbedder({
      model,
      dim: 8,
      modelsDir,
      allowDownload: true,
      endpoint: hub.endpoint,
      logger,
    })
    expect(await online.embedQuery('保証期間')).toHaveLength(8)
    expect(hub.requested).toContain('/mirror/tiny-embedder/resolve/main/onnx/model_quantized.onnx')
    await access(join(modelsDir, 'mirror/tiny-embedder/onnx/model_quantized.onnx'))
    // With downloads off, the copy in MODELS_DIR is enough.
    const before = hub.requested.length
    const offline = await loadTransformersEmbedder({ model, dim: 8, modelsDir, allowDownload: false, logger })
    expect(await offline.embedQuery('保証期間')).toEqual(await online.embedQuery('保証期間'))
    expect(hub.requested.length).toBe(before)
    await Promise.all([online.close?.(), offline.close?.()])
  },
)

it.skipIf(!found)('a model the endpoint does not have fails to load with a reason', async () => {
  await expect(
    loadTransformersEmbedder({
      model: 'mirror/absent',
      dim: 8,
      modelsDir,
      allowDownload: true,
      endpoint: hub.endpoint,
      logger,
    }),
  ).rejects.toThrow(/absent|not found|404|Could not locate/i)
})

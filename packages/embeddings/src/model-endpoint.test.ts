import { createReadStream } from 'node:fs'
import { access, mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment, testConfig } from '@rag/config'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { findSharedTokenizer, writeTinyEmbeddingModel } from './testing/tiny-embedding-model.ts'
import { loadTransformersEmbedder } from './transformers-embedder.ts'

// A model hub served on loopback the way the Hugging Face hub (or a mirror of it) serves files:
// GET /{org}/{name}/resolve/main/{file}. MODEL_ENDPOINT points downloads at it.

const logger = createLogger({ name: 'test', level: 'silent' })
const { dir: tokenizerDir, found } = await findSharedTokenizer(
  testConfig.parse(processEnvironment()).test.sharedDir,
)
let hubDir: string
let modelsDir: string
let hub: Server
let endpoint: string
const requested: string[] = []

beforeAll(async () => {
  hubDir = await mkdtemp(join(tmpdir(), 'rag-hub-'))
  modelsDir = await mkdtemp(join(tmpdir(), 'rag-hub-models-'))
  if (!found) return
  await writeTinyEmbeddingModel({ dir: join(hubDir, 'mirror/tiny-embedder'), tokenizerDir, dim: 8 })
  hub = createServer((request, response) => {
    requested.push(request.url ?? '')
    const match = /^\/([^/]+\/[^/]+)\/resolve\/main\/(.+)$/.exec(request.url ?? '')
    const path = match ? join(hubDir, match[1] ?? '', decodeURIComponent(match[2] ?? '')) : ''
    access(path).then(
      () => createReadStream(path).pipe(response),
      () => response.writeHead(404).end('Entry not found'),
    )
  })
  await new Promise<void>((resolve) => hub.listen(0, '127.0.0.1', resolve))
  endpoint = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await new Promise((resolve) => (hub ? hub.close(resolve) : resolve(undefined)))
  await rm(hubDir, { recursive: true, force: true })
  await rm(modelsDir, { recursive: true, force: true })
})

it.skipIf(!found)(
  'downloads a model from the configured endpoint into MODELS_DIR, then uses it offline',
  async () => {
    const online = await loadTransformersEmbedder({
      model: 'mirror/tiny-embedder',
      dim: 8,
      modelsDir,
      allowDownload: true,
      endpoint,
      logger,
    })
    expect(await online.embedQuery('保証期間')).toHaveLength(8)
    expect(requested).toContain('/mirror/tiny-embedder/resolve/main/onnx/model_quantized.onnx')
    await access(join(modelsDir, 'mirror/tiny-embedder/onnx/model_quantized.onnx'))
    // With downloads off, the copy in MODELS_DIR is enough.
    const before = requested.length
    const offline = await loadTransformersEmbedder({
      model: 'mirror/tiny-embedder',
      dim: 8,
      modelsDir,
      allowDownload: false,
      logger,
    })
    expect(await offline.embedQuery('保証期間')).toEqual(await online.embedQuery('保証期間'))
    expect(requested.length).toBe(before)
  },
)

it.skipIf(!found)('a model the endpoint does not have fails to load with a reason', async () => {
  await expect(
    loadTransformersEmbedder({
      model: 'mirror/absent',
      dim: 8,
      modelsDir,
      allowDownload: true,
      endpoint,
      logger,
    }),
  ).rejects.toThrow(/absent|not found|404|Could not locate/i)
})

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import { createLogger } from '@rag/log'
import { createModelProvider } from '@rag/runtime'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Embedder } from './embedder.ts'
import { loadTinyEmbedder } from './testing/tiny-embedder.ts'
import { findSharedTokenizer } from './testing/tiny-embedding-model.ts'
import { loadTransformersEmbedder, prefixesFor } from './transformers-embedder.ts'

const logger = createLogger({ name: 'test', level: 'silent' })
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(
  testConfig.parse(processEnvironment()).test.sharedDir,
)
if (!hasTokenizer)
  console.warn(`skipping transformers.js tests: no tokenizer at ${tokenizerDir} (set SHARED_DIR)`)

let modelsDir: string
let embedder: Embedder
beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'rag-models-'))
  if (!hasTokenizer) return
  embedder = await loadTinyEmbedder({ modelsDir, tokenizerDir, dim: 8, model: 'test/tiny-embedder', logger })
})
afterAll(async () => {
  await rm(modelsDir, { recursive: true, force: true })
})

describe.skipIf(!hasTokenizer)('the transformers.js embedder on a tiny generated model', () => {
  it('returns one L2-normalised vector of the configured size per text, in input order', async () => {
    const texts = ['the lamp charges in three hours', 'warranty', 'a', 'battery life is eight hours', 'x y z']
    const vectors = await embedder.embedPassages(texts)
    expect(vectors).toHaveLength(texts.length)
    for (const vector of vectors) {
      expect(vector).toHaveLength(8)
      expect(Math.hypot(...vector)).toBeCloseTo(1, 5)
    }
    // Batching (16 at a time) and order: the same text embedded alone gives the same vector.
    const alone = await embedder.embedPassages([texts[3] ?? ''])
    expect(alone[0]?.map((v) => v.toFixed(5))).toEqual(vectors[3]?.map((v) => v.toFixed(5)))
    const many = await embedder.embedPassages(
      Array.from({ length: 40 }, (_, i) => texts[i % texts.length] ?? ''),
    )
    expect(many[38]?.map((v) => v.toFixed(5))).toEqual(vectors[3]?.map((v) => v.toFixed(5)))
  })

  it('pools over tokens: different texts give different vectors, identical texts identical ones', async () => {
    const [a, b, c] = await embedder.embedPassages(['lamp', 'warranty period', 'lamp'])
    expect(a).toEqual(c)
    expect(a).not.toEqual(b)
  })

  it('refuses, when it is loaded, a model whose vectors do not have the configured size', async () => {
    await expect(
      loadTransformersEmbedder({
        model: 'test/tiny-embedder',
        dim: 16,
        modelsDir,
        allowDownload: false,
        logger,
      }),
    ).rejects.toThrow('EMBEDDING_DIM is 16 but test/tiny-embedder produces 8-dimensional vectors')
  })
})

describe('model availability', () => {
  it('reports a model that cannot be obtained once, at warn with the fix, without throwing, and retries later', async () => {
    let attempts = 0
    const lines: { level: number; msg: string }[] = []
    const provider = createModelProvider({
      name: 'nobody/missing-model',
      setting: 'EMBEDDING_MODEL',
      logger: createLogger({
        name: 'test',
        level: 'debug',
        destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
      }),
      retryAfterMs: 0,
      load: () => {
        attempts += 1
        return loadTransformersEmbedder({
          model: 'nobody/missing-model',
          dim: 8,
          modelsDir,
          allowDownload: false,
          logger,
        })
      },
    })
    expect(await provider.get()).toBeNull()
    expect(await provider.get()).toBeNull()
    expect(attempts).toBe(2)
    expect(provider.state()).toMatchObject({
      state: 'unavailable',
      model: 'nobody/missing-model',
      error: expect.stringMatching(/is not in MODELS_DIR .*lacks .*config\.json.*ALLOW_MODEL_DOWNLOAD=false/),
    })
    // Told once at warn (what, why, how to fix); the same failure again only at debug.
    const warnings = lines.filter((line) => line.level === 40)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]?.msg).toMatch(
      /^EMBEDDING_MODEL nobody\/missing-model is unavailable.*To fix: run `pnpm rag models pull`.*EMBEDDING_MODEL=none/,
    )
    expect(lines.filter((line) => line.level > 40)).toEqual([])
  })

  it('knows which models want which prefixes', () => {
    expect(prefixesFor('Xenova/multilingual-e5-small')).toEqual({ passage: 'passage: ', query: 'query: ' })
    expect(prefixesFor('cl-nagoya/ruri-v3-30m')).toEqual({ passage: '検索文書: ', query: '検索クエリ: ' })
    expect(prefixesFor('Xenova/all-MiniLM-L6-v2')).toEqual({ passage: '', query: '' })
  })
})

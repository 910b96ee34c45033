import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TextGenerator } from './llama-generator.ts'
import { llmProvider } from './llm-provider.ts'
import { openAiCompatibleGenerator } from './openai-compatible-generator.ts'
import { loadTestGenerator, serveLlm } from './testing.ts'
import { estimateTokens } from './token-estimate.ts'

// The openai-compatible backend against a real LLM server on loopback: node-llama-cpp serving
// stories260K over the OpenAI chat protocol (as Ollama or llama-server would serve a real model).
const tests = testConfig.parse(processEnvironment()).test
const { path: gguf, found } = await findTestAsset(tests, 'models/gguf/stories260K.gguf')
const logger = createLogger({ name: 'test', level: 'silent' })
const request = { system: 'You tell stories.', prompt: 'Once upon a time', maxTokens: 24, temperature: 0 }

describe.skipIf(!found)('an LLM server as the backend', () => {
  let local: TextGenerator
  beforeAll(async () => {
    local = await loadTestGenerator(gguf)
  })
  afterAll(async () => {
    await local?.close()
  })
  const remoteOf = (baseUrl: string) =>
    openAiCompatibleGenerator({ baseUrl, model: 'stories260K', contextSize: 2048, timeoutMs: 30_000 })

  it('streams the server’s answer token by token, with the server’s token counts', async () => {
    const server = await serveLlm(local)
    try {
      const pieces: string[] = []
      const result = await remoteOf(server.baseUrl).generate({
        ...request,
        onText: (text) => pieces.push(text),
      })
      expect(pieces.length).toBeGreaterThan(3)
      expect(result.text).toBe(pieces.join('').trim())
      // The same model, prompt and temperature in-process: the same words.
      expect(result.text).toBe((await local.generate(request)).text)
      expect(result.completionTokens).toBeGreaterThan(3)
      expect(result.promptTokens).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })

  it('says when the answer stopped at the token cap, as the server says it (finish_reason length)', async () => {
    const server = await serveLlm(local)
    try {
      // A story model tells on past 4 tokens: the cap stops it, and both sides say so.
      const capped = await remoteOf(server.baseUrl).generate({ ...request, maxTokens: 4 })
      expect(capped.completionTokens).toBe(4)
      expect(capped.stoppedAtCap).toBe(true)
      expect((await local.generate({ ...request, maxTokens: 4 })).stoppedAtCap).toBe(true)
    } finally {
      await server.close()
    }
  })

  it('throws when the server dies mid-stream, after what it sent was passed on', async () => {
    const server = await serveLlm(local, { cutFirstStreamAfter: 3 })
    try {
      const pieces: string[] = []
      await expect(
        remoteOf(server.baseUrl).generate({ ...request, onText: (text) => pieces.push(text) }),
      ).rejects.toThrow()
      expect(pieces.length).toBeGreaterThanOrEqual(1)
      // The next request (the job's retry) is answered whole.
      expect((await remoteOf(server.baseUrl).generate(request)).text.length).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
  })

  it('cuts a stream that trickles on without an answer at LLM_TIMEOUT_SECONDS, not only a silent server', async () => {
    // The server answers at once and keeps the stream alive, but never finishes: only the
    // timeout can end this, so the test does not race the machine.
    const server = await serveLlm(local, { trickleAfter: 2 })
    try {
      const generator = openAiCompatibleGenerator({
        baseUrl: server.baseUrl,
        model: 'stories260K',
        contextSize: 2048,
        timeoutMs: 1000,
      })
      await expect(generator.generate(request)).rejects.toThrow(
        /did not finish its answer within 1 s \(LLM_TIMEOUT_SECONDS\)/,
      )
    } finally {
      await server.close()
    }
  })

  it('checks at start that the server has the model, naming the ones it has', async () => {
    const server = await serveLlm(local)
    try {
      const missing = openAiCompatibleGenerator({
        baseUrl: server.baseUrl,
        model: 'qwen3:8b',
        contextSize: 2048,
        timeoutMs: 30_000,
      })
      await expect(missing.check()).rejects.toThrow(
        /has no model "qwen3:8b" \(it has: stories260K\); set LLM_MODEL to one of them, or pull it on the server \(ollama pull qwen3:8b\)/,
      )
      await expect(remoteOf(server.baseUrl).check()).resolves.toBeUndefined()
    } finally {
      await server.close()
    }
  })

  it("budgets to the window an Ollama-like server really runs, and says so, rather than LLM_CONTEXT_SIZE's", async () => {
    const server = await serveLlm(local, { ollamaWindow: 1024 })
    try {
      const told: { tokens: number; configured: number; source: string }[] = []
      const generator = openAiCompatibleGenerator({
        baseUrl: server.baseUrl,
        model: 'stories260K',
        contextSize: 8192,
        timeoutMs: 30_000,
        onWindow: (window) => told.push(window),
      })
      expect(generator.contextSize).toBe(8192)
      await generator.check()
      expect(generator.contextSize).toBe(1024)
      expect(told).toEqual([
        { tokens: 1024, configured: 8192, source: "Ollama /api/show (the model's num_ctx)" },
      ])
    } finally {
      await server.close()
    }
  })

  it('is unavailable (answers degrade) while the server is unreachable, and available once it answers', async () => {
    const server = await serveLlm(local)
    const baseUrl = server.baseUrl
    await server.close()
    const generation = {
      ...generationDefaults(),
      backend: 'openai-compatible' as const,
      baseUrl,
      timeoutMs: 30_000,
    }
    const models = { llm: 'stories260K', dir: '', allowDownload: false, endpoint: '' }
    expect(await llmProvider(models, generation, logger).get()).toBeNull()
    const running = await serveLlm(local)
    try {
      const provider = llmProvider(models, { ...generation, baseUrl: running.baseUrl }, logger)
      expect(await provider.get()).not.toBeNull()
    } finally {
      await running.close()
    }
  })
})

it('estimates tokens over rather than under: a CJK character each, English about four characters', () => {
  expect(estimateTokens('保証期間')).toBe(4)
  expect(estimateTokens('warranty period')).toBe(5)
})

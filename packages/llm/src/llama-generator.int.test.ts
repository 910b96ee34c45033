import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { createLogger } from '@rag/log'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadLlamaGenerator, type TextGenerator } from './llama-generator.ts'

const { path: gguf, found: present } = await findTestAsset(
  testConfig.parse(processEnvironment()).test,
  'models/gguf/stories260K.gguf',
)

describe.skipIf(!present)('llama.cpp generator (stories260K.gguf)', () => {
  let generator: TextGenerator
  beforeAll(async () => {
    generator = await loadLlamaGenerator({
      model: gguf,
      modelsDir: '.',
      allowDownload: false,
      contextSize: 4096,
      sequences: 2,
      threads: 1,
      logger: createLogger({ name: 'test', level: 'silent' }),
    })
  })
  afterAll(() => generator?.close())

  it('caps the window at what the model was trained for', () => {
    expect(generator.contextSize).toBe(2048)
  })

  it('streams the same text it returns, and counts tokens', async () => {
    const pieces: string[] = []
    const result = await generator.generate({
      system: 'Tell a story.',
      prompt: 'Once upon a time',
      maxTokens: 24,
      temperature: 0,
      onText: (text) => pieces.push(text),
    })
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('').trim()).toBe(result.text)
    expect(result.completionTokens).toBeGreaterThan(0)
    expect(result.completionTokens).toBeLessThanOrEqual(24)
    expect(result.promptTokens).toBeGreaterThanOrEqual(generator.countTokens('Once upon a time'))
  })

  it('runs as many generations at once as it has sequences, and is repeatable at temperature 0', async () => {
    const ask = () =>
      generator.generate({ system: 'Tell a story.', prompt: 'Lily', maxTokens: 16, temperature: 0 })
    const [a, b] = await Promise.all([ask(), ask()])
    expect(a.text).toBe(b.text)
  })

  it('truncates text to a number of tokens', () => {
    const text = 'The little dog ran to the park and played with a ball all day long.'
    const cut = generator.truncateToTokens(text, 5)
    expect(generator.countTokens(cut)).toBeLessThanOrEqual(6)
    expect(text.startsWith(cut.trim())).toBe(true)
    expect(generator.truncateToTokens('short', 50)).toBe('short')
  })

  it('names a missing model file', async () => {
    await expect(
      loadLlamaGenerator({
        model: 'nope.gguf',
        modelsDir: '/tmp',
        allowDownload: false,
        contextSize: 512,
        sequences: 1,
        threads: 1,
        logger: createLogger({ name: 'test', level: 'silent' }),
      }),
    ).rejects.toThrow(/nope\.gguf/)
  })
})

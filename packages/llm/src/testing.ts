import { dirname } from 'node:path'
import { createLogger, type Logger } from '@rag/log'
import { loadLlamaGenerator, type TextGenerator } from './llama-generator.ts'

/**
 * A GGUF the test already has (stories260K from ../shared) loaded as the LLM worker loads one:
 * never downloading, one thread, a small context.
 */
export function loadTestGenerator(
  model: string,
  {
    sequences = 1,
    contextSize = 2048,
    logger,
  }: { sequences?: number; contextSize?: number; logger?: Logger } = {},
): Promise<TextGenerator> {
  return loadLlamaGenerator({
    model,
    modelsDir: dirname(model),
    allowDownload: false,
    contextSize,
    sequences,
    threads: 1,
    logger: logger ?? createLogger({ name: 'test-llm', level: 'warn' }),
  })
}

export { type LlmServer, type LlmServerOptions, serveLlm } from './llm-server.ts'

/**
 * An LLM that writes until it is stopped (a long answer on a slow CPU): a word every few
 * milliseconds, through the same TextGenerator interface, ending only when its signal aborts.
 * It records each request, so a test sees what the worker asked and when it stopped.
 */
export function endlessGenerator(): TextGenerator & {
  requests: { maxTokens: number; started: number; ended?: number; aborted?: boolean }[]
} {
  const requests: { maxTokens: number; started: number; ended?: number; aborted?: boolean }[] = []
  let clock = 0
  return {
    model: 'endless',
    contextSize: 4096,
    countTokens: (text) => [...text].length,
    truncateToTokens: (text, tokens) => [...text].slice(0, tokens).join(''),
    requests,
    async generate({ maxTokens, onText, signal }) {
      const request: (typeof requests)[number] = { maxTokens, started: ++clock }
      requests.push(request)
      let written = 0
      while (!signal?.aborted) {
        onText?.('word ')
        written += 1
        await new Promise((resolve) => setTimeout(resolve, 5))
      }
      request.ended = ++clock
      request.aborted = true
      throw signal.reason instanceof Error ? signal.reason : new Error(`aborted after ${written} words`)
    },
    async close() {},
  }
}

/** A real generator that starts each generation only once the test lets it (`release`). */
export function gatedGenerator(inner: TextGenerator): TextGenerator & { release(): void } {
  let open: () => void = () => undefined
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  return {
    ...inner,
    release: () => open(),
    async generate(request) {
      await gate
      return inner.generate(request)
    },
    close: () => inner.close(),
  }
}

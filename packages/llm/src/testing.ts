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

import type { GenerationSection, ModelsSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { createModelProvider, type ModelProvider } from '@rag/runtime'
import { loadLlamaGenerator, openAiCompatibleGenerator } from './backends.ts'
import type { TextGenerator } from './llama-generator.ts'

/**
 * The configured LLM, made ready once per process on first use: the GGUF loaded into llama.cpp,
 * or an LLM server the user runs, checked to answer (LLM_BACKEND). Unavailable → null: answers
 * degrade to extractive and say so, and it is tried again later.
 */
export function llmProvider(
  models: Pick<ModelsSection, 'llm' | 'dir' | 'allowDownload' | 'endpoint'>,
  generation: GenerationSection,
  logger: Logger,
): ModelProvider<TextGenerator> {
  const remote = generation.backend === 'openai-compatible'
  return createModelProvider<TextGenerator>({
    name: models.llm,
    setting: remote ? 'LLM_BASE_URL' : 'LLM_MODEL',
    logger,
    load: async () => {
      if (remote) {
        const generator = await openAiCompatibleGenerator({
          baseUrl: generation.baseUrl ?? '',
          apiKey: generation.apiKey,
          model: models.llm ?? '',
          contextSize: generation.contextSize,
          timeoutMs: generation.timeoutMs,
          onWindow: (window) =>
            logger.warn(
              window,
              `the LLM server runs ${models.llm} with a ${window.tokens}-token window (${window.source}), less than LLM_CONTEXT_SIZE ${window.configured}: prompts are budgeted to ${window.tokens} (raise the server's window to use more: docs/models.md)`,
            ),
        })
        await generator.check()
        return generator
      }
      return loadLlamaGenerator({
        model: models.llm ?? '',
        modelsDir: models.dir,
        allowDownload: models.allowDownload,
        contextSize: generation.contextSize,
        sequences: generation.concurrency,
        threads: generation.threads,
        endpoint: models.endpoint,
        logger,
      })
    },
  })
}

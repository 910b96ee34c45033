import type { GenerationSection, ModelsSection } from '@rag/config'
import type { Logger } from '@rag/log'
import { createModelProvider, type ModelProvider } from '@rag/runtime'
import { loadLlamaGenerator, type TextGenerator } from './llama-generator.ts'

/** The configured GGUF, loaded once per process on first use; unavailable → null (answers degrade). */
export function llmProvider(
  models: ModelsSection,
  generation: GenerationSection,
  logger: Logger,
): ModelProvider<TextGenerator> {
  return createModelProvider<TextGenerator>({
    name: models.llm,
    setting: 'LLM_MODEL',
    logger,
    load: () =>
      loadLlamaGenerator({
        model: models.llm ?? '',
        modelsDir: models.dir,
        allowDownload: models.allowDownload,
        contextSize: generation.contextSize,
        sequences: generation.concurrency,
        threads: generation.threads,
        endpoint: models.endpoint,
        logger,
      }),
  })
}

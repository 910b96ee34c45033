import type { LlamaGeneratorOptions, TextGenerator } from './llama-generator.ts'
import type { OpenAiCompatibleOptions } from './openai-compatible-generator.ts'

// The backends' libraries are loaded when one is used, not when @rag/llm is imported: node-llama-cpp
// costs about 0.8 s of CPU and 40 MB, openai 0.3 s, in every process that only wants a type or a
// token estimate from here (the gateway, retrieval, the reranker, the CLI).

type OpenAiCompatibleGenerator = ReturnType<
  typeof import('./openai-compatible-generator.ts')['openAiCompatibleGenerator']
>

/** Loads the GGUF into llama.cpp once; each generate() borrows a context sequence (llama-generator.ts). */
export const loadLlamaGenerator = async (options: LlamaGeneratorOptions): Promise<TextGenerator> =>
  (await import('./llama-generator.ts')).loadLlamaGenerator(options)

/** Finds the GGUF (downloading it on first use when allowed) and gives its path. */
export const resolveModelPath = async (
  options: Pick<LlamaGeneratorOptions, 'model' | 'modelsDir' | 'allowDownload' | 'logger' | 'endpoint'>,
): Promise<string> => (await import('./llama-generator.ts')).resolveModelPath(options)

/** An LLM server the user runs, spoken to over the OpenAI API (openai-compatible-generator.ts). */
export const openAiCompatibleGenerator = async (
  options: OpenAiCompatibleOptions,
): Promise<OpenAiCompatibleGenerator> =>
  (await import('./openai-compatible-generator.ts')).openAiCompatibleGenerator(options)

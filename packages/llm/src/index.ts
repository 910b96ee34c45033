export {
  type GenerateRequest,
  type Generation,
  type LlamaGeneratorOptions,
  loadLlamaGenerator,
  resolveModelPath,
  type TextGenerator,
} from './llama-generator.ts'
export { llmProvider } from './llm-provider.ts'
export { estimateTokens, openAiCompatibleGenerator } from './openai-compatible-generator.ts'
export { verifyModelFile } from './verify-model-file.ts'

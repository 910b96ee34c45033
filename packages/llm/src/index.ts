export {
  type GenerateRequest,
  type Generation,
  type LlamaGeneratorOptions,
  loadLlamaGenerator,
  resolveModelPath,
  type TextGenerator,
} from './llama-generator.ts'
export { llmProvider } from './llm-provider.ts'
export { verifyModelFile } from './verify-model-file.ts'

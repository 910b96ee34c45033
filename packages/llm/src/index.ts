export {
  type GenerateRequest,
  type Generation,
  type LlamaGeneratorOptions,
  loadLlamaGenerator,
  resolveModelPath,
  type TextGenerator,
} from './llama-generator.ts'
export { llmProvider } from './llm-provider.ts'
export { openAiCompatibleGenerator } from './openai-compatible-generator.ts'
export { REASONING_MODEL, ThinkingFilter, withoutThinking } from './thinking-filter.ts'
export { tokenBudgetOf } from './token-budget.ts'
export { estimateTokens, truncateToEstimate } from './token-estimate.ts'
export { verifyModelFile } from './verify-model-file.ts'

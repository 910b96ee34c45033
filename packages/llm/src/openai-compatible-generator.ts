import OpenAI from 'openai'
import type { TextGenerator } from './llama-generator.ts'
import { estimateTokens, truncateToEstimate } from './token-estimate.ts'

export interface OpenAiCompatibleOptions {
  /** The server's OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string
  apiKey?: string
  /** The model name the server knows (Ollama: qwen2.5:1.5b; llama-server: anything). */
  model: string
  contextSize: number
  timeoutMs: number
}

/**
 * An LLM server the user already runs, through its OpenAI-compatible chat API (Ollama's /v1,
 * llama.cpp's llama-server, LM Studio, vLLM), with the official openai client: the same prompts as
 * the in-process model, the answer streamed token by token. A request that fails or is cut off
 * mid-stream throws, and the job is retried like a crashed local model.
 */
export function openAiCompatibleGenerator(options: OpenAiCompatibleOptions): TextGenerator & {
  /** Whether the server answers (its model list): what "loaded" means for a remote model. */
  check(): Promise<void>
} {
  // Retries are the job queue's (with the answer restarted for watchers), not the client's.
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? 'unused',
    maxRetries: 0,
    timeout: options.timeoutMs,
  })
  return {
    model: options.model,
    contextSize: options.contextSize,
    countTokens: estimateTokens,
    truncateToTokens: (text, tokens) =>
      estimateTokens(text) <= tokens ? text : truncateToEstimate(text, tokens),
    async check() {
      await client.models.list()
    },
    async generate({ system, prompt, maxTokens, temperature, onText, signal }) {
      const stream = await client.chat.completions.create(
        {
          model: options.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: prompt },
          ],
          max_tokens: maxTokens,
          temperature,
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal },
      )
      let text = ''
      let usage: { prompt_tokens: number; completion_tokens: number } | undefined
      for await (const chunk of stream) {
        const piece = chunk.choices[0]?.delta?.content
        if (piece) {
          text += piece
          onText?.(piece)
        }
        if (chunk.usage) usage = chunk.usage
      }
      return {
        text: text.trim(),
        promptTokens: usage?.prompt_tokens ?? estimateTokens(system) + estimateTokens(prompt),
        completionTokens: usage?.completion_tokens ?? estimateTokens(text),
      }
    },
    async close() {},
  }
}

import OpenAI from 'openai'
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions'
import type { TextGenerator } from './llama-generator.ts'
import { readServerWindow, type ServerWindow, sameOllamaModel } from './server-window.ts'
import { estimateTokens, truncateToEstimate } from './token-estimate.ts'

export interface OpenAiCompatibleOptions {
  /** The server's OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1. */
  baseUrl: string
  apiKey?: string
  /** The model name the server knows (Ollama: qwen2.5:1.5b; llama-server: anything). */
  model: string
  contextSize: number
  /** The longest one request may take, its whole stream included. */
  timeoutMs: number
  /** Told the window the server really runs with when it is smaller than contextSize. */
  onWindow?: (window: ServerWindow & { configured: number }) => void
}

/**
 * An LLM server the user already runs, through its OpenAI-compatible chat API (Ollama's /v1,
 * llama.cpp's llama-server, LM Studio, vLLM), with the official openai client: the same prompts as
 * the in-process model, the answer streamed token by token. A request that fails or is cut off
 * mid-stream throws, and the job is retried like a crashed local model.
 */
export function openAiCompatibleGenerator(options: OpenAiCompatibleOptions): TextGenerator & {
  /**
   * Whether the server answers and has the model (its model list): what "loaded" means for a
   * remote model. It also reads the window the server really runs with, and budgets to it.
   */
  check(): Promise<void>
} {
  let contextSize = options.contextSize
  // Ollama ignores chat_template_kwargs: its thinking goes off only by reasoning_effort "none"
  // (which other servers may refuse, so it is sent to Ollama alone, once check() has seen it).
  let ollama = false
  // Retries are the job queue's (with the answer restarted for watchers), not the client's.
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey ?? 'unused',
    maxRetries: 0,
    timeout: options.timeoutMs,
  })
  return {
    model: options.model,
    get contextSize() {
      return contextSize
    },
    countTokens: estimateTokens,
    truncateToTokens: (text, tokens) =>
      estimateTokens(text) <= tokens ? text : truncateToEstimate(text, tokens),
    async check() {
      const listed = (await client.models.list()).data as unknown as ({ id: string } & Record<
        string,
        unknown
      >)[]
      const entry = listed.find((model) => sameOllamaModel(model.id, options.model))
      const window = await readServerWindow({ ...options, listed: entry })
      // llama-server answers every name with the one model it runs; the others route by name.
      if (!entry && !window?.anyModelName)
        throw new Error(
          `the LLM server at ${options.baseUrl} has no model "${options.model}" (it has: ${listed.map((model) => model.id).join(', ') || 'none'}); set LLM_MODEL to one of them, or pull it on the server (ollama pull ${options.model})`,
        )
      ollama = window?.ollama === true
      contextSize = Math.min(options.contextSize, window?.tokens ?? options.contextSize)
      if (window && window.tokens < options.contextSize)
        options.onWindow?.({ ...window, configured: options.contextSize })
    },
    async generate({ system, prompt, maxTokens, temperature, onText, signal }) {
      // The whole request, stream included, is bounded: the client's own timeout stops at the
      // response headers, and a server trickling its stream would otherwise hold the job forever.
      const deadline = AbortSignal.timeout(options.timeoutMs)
      const request = {
        model: options.model,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
        max_tokens: maxTokens,
        temperature,
        stream: true,
        stream_options: { include_usage: true },
        // Reasoning models (Qwen3, DeepSeek-R1 distills) think before answering, which a CPU pays
        // for and which can spend the whole token cap: off where the server's template allows
        // (llama-server, vLLM; others ignore it). What thinking still comes is left out.
        chat_template_kwargs: { enable_thinking: false },
        ...(ollama ? { reasoning_effort: 'none' } : {}),
      } as ChatCompletionCreateParamsStreaming
      let text = ''
      let usage: { prompt_tokens: number; completion_tokens: number } | undefined
      let finish: string | null | undefined
      try {
        const stream = await client.chat.completions.create(request, {
          signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        })
        for await (const chunk of stream) {
          // Only the answer: reasoning_content / reasoning deltas are the model's thinking.
          const piece = chunk.choices[0]?.delta?.content
          if (piece) {
            text += piece
            onText?.(piece)
          }
          if (chunk.usage) usage = chunk.usage
          finish = chunk.choices[0]?.finish_reason ?? finish
        }
        // The client ends the stream quietly when it is aborted: a cut answer is not an answer.
        signal?.throwIfAborted()
        deadline.throwIfAborted()
      } catch (error) {
        if (deadline.aborted && !signal?.aborted)
          throw new Error(
            `the LLM server did not finish its answer within ${options.timeoutMs / 1000} s (LLM_TIMEOUT_SECONDS)`,
          )
        throw error
      }
      const completionTokens = usage?.completion_tokens ?? estimateTokens(text)
      return {
        text: text.trim(),
        promptTokens: usage?.prompt_tokens ?? estimateTokens(system) + estimateTokens(prompt),
        completionTokens,
        // The server says so (finish_reason length); one that does not, by the count it gives.
        stoppedAtCap: finish === 'length' || (usage !== undefined && completionTokens >= maxTokens),
      }
    },
    async close() {},
  }
}

import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { basename } from 'node:path'
import type { TextGenerator } from './llama-generator.ts'
import { estimateTokens } from './token-estimate.ts'

export interface LlmServer {
  /** Its OpenAI-compatible API, for LLM_BASE_URL. */
  baseUrl: string
  /** Chat requests received. */
  requests: number
  /** Requests whose prompt did not fit the window and lost its start (as Ollama does, silently). */
  truncated: number
  /** The longest prompt received, in estimated tokens (system and user message). */
  largestPrompt: number
  /** Requests that asked for thinking off (chat_template_kwargs.enable_thinking: false). */
  thinkingOffAsked: number
  close(): Promise<void>
}

export interface LlmServerOptions {
  /** The first streamed answer is cut off after this many chunks (the server dying mid-stream). */
  cutFirstStreamAfter?: number
  /**
   * Behave like Ollama: the model runs with this window whatever the client budgets, a longer
   * prompt loses its start without an error, and /api/show says the window (as num_ctx).
   */
  ollamaWindow?: number
  /** A reasoning model whose server ignores "thinking off": thinking in <think> tags in the content, or as reasoning_content deltas. */
  thinking?: 'tags' | 'reasoning_content'
  /** After this many chunks the stream trickles: keep-alive comments, no token, no end. */
  trickleAfter?: number
  /** The model's name in the model list (default: the GGUF's file name, as Ollama lists a tag). */
  name?: string
}

const THINKING = ['Let me think. ', 'The passages say two years, ', 'so I answer that.']
const THINKING_TAGGED = ['<think>', ...THINKING, '</think>', '\n\n']

const body = async (request: IncomingMessage) => {
  const parts: Buffer[] = []
  for await (const part of request) parts.push(part as Buffer)
  return JSON.parse(Buffer.concat(parts).toString() || '{}') as {
    messages?: { role: string; content: string }[]
    max_tokens?: number
    temperature?: number
    stream?: boolean
    chat_template_kwargs?: { enable_thinking?: boolean }
  }
}

/**
 * A small OpenAI-compatible LLM server on loopback serving a real model through node-llama-cpp
 * (what Ollama or llama-server are to users): GET /v1/models and POST /v1/chat/completions,
 * streamed or not. For tests of the openai-compatible backend, including a server that dies
 * mid-stream.
 */
export async function serveLlm(generator: TextGenerator, options: LlmServerOptions = {}): Promise<LlmServer> {
  let requests = 0
  let truncated = 0
  let largestPrompt = 0
  let thinkingOffAsked = 0
  let cutDone = false
  // One generation at a time, as a one-slot server runs them: a request waits for the one before.
  let queue: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const server = createServer(async (request, response) => {
    if (options.ollamaWindow && request.method === 'POST' && request.url === '/api/show') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ parameters: `num_ctx ${options.ollamaWindow}\nstop "<|im_end|>"` }))
      return
    }
    if (request.method === 'GET' && request.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          object: 'list',
          data: [
            { id: options.name ?? basename(generator.model, '.gguf'), object: 'model', owned_by: 'test' },
          ],
        }),
      )
      return
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
      return
    }
    requests += 1
    const chat = await body(request)
    if (chat.chat_template_kwargs?.enable_thinking === false) thinkingOffAsked += 1
    let system = chat.messages?.find((m) => m.role === 'system')?.content ?? ''
    let prompt = chat.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? ''
    // Ollama's way with a prompt longer than its window: the start goes, the instructions first.
    // (Counted as the client estimates, standing in for a real model's tokenizer, which the
    // estimate over-counts; stories260K's byte tokens would not.)
    const window = options.ollamaWindow
    largestPrompt = Math.max(largestPrompt, estimateTokens(system + prompt))
    if (window && estimateTokens(system + prompt) + (chat.max_tokens ?? 64) > window) {
      truncated += 1
      system = ''
      prompt = [...prompt].slice(Math.floor([...prompt].length / 2)).join('')
    }
    const id = `chatcmpl-${randomUUID()}`
    const cutAfter = chat.stream && !cutDone ? options.cutFirstStreamAfter : undefined
    if (cutAfter !== undefined) cutDone = true
    if (!chat.stream) {
      const result = await generator.generate({
        system,
        prompt,
        maxTokens: chat.max_tokens ?? 64,
        temperature: chat.temperature ?? 0,
      })
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: result.text },
              finish_reason: result.stoppedAtCap ? 'length' : 'stop',
            },
          ],
          usage: { prompt_tokens: result.promptTokens, completion_tokens: result.completionTokens },
        }),
      )
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`)
    const delta = (fields: Record<string, string>) =>
      send({
        id,
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: fields, finish_reason: null }],
      })
    if (options.thinking === 'tags') for (const piece of THINKING_TAGGED) delta({ content: piece })
    if (options.thinking === 'reasoning_content')
      for (const piece of THINKING) delta({ reasoning_content: piece, content: '' })
    if (options.trickleAfter !== undefined) {
      for (let i = 0; i < options.trickleAfter; i++) delta({ content: 'Once ' })
      // Alive, never done: a keep-alive comment now and then, until the client hangs up.
      const timer = setInterval(() => response.write(': keep-alive\n\n'), 50)
      response.once('close', () => clearInterval(timer))
      return
    }
    let chunks = 0
    const abort = new AbortController()
    const result = await inTurn(() =>
      generator.generate({
        system,
        prompt,
        maxTokens: chat.max_tokens ?? 64,
        temperature: chat.temperature ?? 0,
        signal: abort.signal,
        onText: (text) => {
          if (response.destroyed) return
          delta({ content: text })
          chunks += 1
          // Dies mid-stream: the connection drops without an end.
          if (cutAfter !== undefined && chunks >= cutAfter) {
            response.socket?.destroy()
            abort.abort()
          }
        },
      }),
    ).then(
      (generation) => ({ generation }),
      (error: unknown) => ({ error }),
    )
    if (response.destroyed) return
    if (!('generation' in result)) {
      // The model failed: the stream says so and ends, as servers do, instead of hanging.
      send({ error: { message: String(result.error), type: 'server_error' } })
      response.end('data: [DONE]\n\n')
      return
    }
    const { generation } = result
    send({
      id,
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: {}, finish_reason: generation.stoppedAtCap ? 'length' : 'stop' }],
    })
    send({
      id,
      object: 'chat.completion.chunk',
      choices: [],
      usage: {
        prompt_tokens: generation.promptTokens,
        completion_tokens: generation.completionTokens,
        total_tokens: generation.promptTokens + generation.completionTokens,
      },
    })
    response.end('data: [DONE]\n\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return requests
    },
    get largestPrompt() {
      return largestPrompt
    },
    get truncated() {
      return truncated
    },
    get thinkingOffAsked() {
      return thinkingOffAsked
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

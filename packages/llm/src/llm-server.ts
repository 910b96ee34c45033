import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TextGenerator } from './llama-generator.ts'

export interface LlmServer {
  /** Its OpenAI-compatible API, for LLM_BASE_URL. */
  baseUrl: string
  /** Chat requests received. */
  requests: number
  close(): Promise<void>
}

export interface LlmServerOptions {
  /** The first streamed answer is cut off after this many chunks (the server dying mid-stream). */
  cutFirstStreamAfter?: number
}

const body = async (request: IncomingMessage) => {
  const parts: Buffer[] = []
  for await (const part of request) parts.push(part as Buffer)
  return JSON.parse(Buffer.concat(parts).toString() || '{}') as {
    messages?: { role: string; content: string }[]
    max_tokens?: number
    temperature?: number
    stream?: boolean
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
  let cutDone = false
  // One generation at a time, as a one-slot server runs them: a request waits for the one before.
  let queue: Promise<unknown> = Promise.resolve()
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work)
    queue = next.catch(() => undefined)
    return next
  }
  const server = createServer(async (request, response) => {
    if (request.method === 'GET' && request.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(
        JSON.stringify({
          object: 'list',
          data: [{ id: generator.model, object: 'model', owned_by: 'test' }],
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
    const system = chat.messages?.find((m) => m.role === 'system')?.content ?? ''
    const prompt = chat.messages?.filter((m) => m.role === 'user').at(-1)?.content ?? ''
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
            { index: 0, message: { role: 'assistant', content: result.text }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: result.promptTokens, completion_tokens: result.completionTokens },
        }),
      )
      return
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (data: unknown) => response.write(`data: ${JSON.stringify(data)}\n\n`)
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
          send({
            id,
            object: 'chat.completion.chunk',
            choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
          })
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
    send({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

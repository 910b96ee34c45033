import { describe, expect, it } from 'vitest'
import { OLLAMA_DEFAULT_WINDOW, readServerWindow } from './server-window.ts'

/** A server that answers only the paths given (JSON bodies), 404 to the rest, recording what it was asked. */
function serverAnswering(routes: Record<string, unknown>) {
  const asked: string[] = []
  const fetch = async (url: string, init?: RequestInit) => {
    const path = new URL(url).pathname
    asked.push(`${init?.method ?? 'GET'} ${path}`)
    return path in routes
      ? new Response(JSON.stringify(routes[path]), { headers: { 'content-type': 'application/json' } })
      : new Response('not found', { status: 404 })
  }
  return { fetch, asked }
}
const read = (routes: Record<string, unknown>, listed?: Record<string, unknown>) => {
  const server = serverAnswering(routes)
  return readServerWindow({ baseUrl: 'http://llm.test/v1', model: 'qwen3:4b', listed, fetch: server.fetch })
}

describe('the window an LLM server really runs a model with', () => {
  it("reads llama-server's slot window, which serves one model whatever its name", async () => {
    expect(
      await read({ '/props': { default_generation_settings: { n_ctx: 4096 }, total_slots: 1 } }),
    ).toEqual({
      tokens: 4096,
      source: 'llama-server /props (n_ctx)',
      anyModelName: true,
    })
  })

  it("reads Ollama's: a loaded model's context_length, else its num_ctx, else Ollama's default", async () => {
    const loaded = { models: [{ name: 'qwen3:4b', model: 'qwen3:4b', context_length: 8192 }] }
    expect((await read({ '/api/ps': loaded, '/api/show': {} }))?.tokens).toBe(8192)
    const configured = { parameters: 'num_ctx 16384\nstop "<|im_end|>"' }
    expect((await read({ '/api/ps': { models: [] }, '/api/show': configured }))?.tokens).toBe(16384)
    expect(
      await read({ '/api/ps': { models: [] }, '/api/show': { parameters: 'stop "<|im_end|>"' } }),
    ).toEqual({
      tokens: OLLAMA_DEFAULT_WINDOW,
      source: "assumed: Ollama's default window (the model could not be loaded to ask, and sets no num_ctx)",
    })
  })

  it('loads a model Ollama has not loaded yet, and reads the window it runs it with (OLLAMA_CONTEXT_LENGTH)', async () => {
    // An Ollama started with OLLAMA_CONTEXT_LENGTH=8192: no API says so until the model is loaded.
    let isLoaded = false
    const asked: string[] = []
    const fetch = async (url: string, init?: RequestInit) => {
      const path = new URL(url).pathname
      asked.push(`${init?.method ?? 'GET'} ${path}`)
      if (path === '/api/generate') isLoaded = true
      const bodies: Record<string, unknown> = {
        '/api/ps': {
          models: isLoaded ? [{ name: 'qwen3:4b', model: 'qwen3:4b', context_length: 8192 }] : [],
        },
        '/api/generate': { done: true, done_reason: 'load' },
        '/api/show': { parameters: 'stop "<|im_end|>"' },
      }
      const body = bodies[path]
      return body
        ? new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
        : new Response('not found', { status: 404 })
    }
    expect(await readServerWindow({ baseUrl: 'http://llm.test/v1', model: 'qwen3:4b', fetch })).toEqual({
      tokens: 8192,
      source: 'Ollama /api/ps (context_length)',
      ollama: true,
    })
    expect(asked).toContain('POST /api/generate')
  })

  it("reads vLLM's max_model_len from the model list, and trusts the configuration where nothing says", async () => {
    expect((await read({}, { id: 'qwen3:4b', max_model_len: 32768 }))?.tokens).toBe(32768)
    expect(await read({})).toBeNull()
  })
})

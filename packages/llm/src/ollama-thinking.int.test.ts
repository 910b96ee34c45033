import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, it } from 'vitest'
import { openAiCompatibleGenerator } from './openai-compatible-generator.ts'

/**
 * A server on loopback speaking Ollama's own API (`/api/ps`) or llama-server's (`/props`) beside
 * the OpenAI one, recording each chat request's body.
 */
async function serverLike(kind: 'ollama' | 'llama-server') {
  const bodies: Record<string, unknown>[] = []
  const server = createServer((request, response) => {
    let raw = ''
    request.on('data', (chunk) => {
      raw += chunk
    })
    request.on('end', () => {
      const json = (value: unknown) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.end(JSON.stringify(value))
      }
      if (request.url === '/v1/models')
        return json({ object: 'list', data: [{ id: 'qwen3:4b', object: 'model' }] })
      if (kind === 'ollama' && request.url === '/api/ps')
        return json({ models: [{ name: 'qwen3:4b', model: 'qwen3:4b', context_length: 8192 }] })
      if (kind === 'llama-server' && request.url === '/props')
        return json({ default_generation_settings: { n_ctx: 8192 } })
      if (request.url === '/v1/chat/completions') {
        bodies.push(JSON.parse(raw) as Record<string, unknown>)
        response.writeHead(200, { 'content-type': 'text/event-stream' })
        const chunk = {
          id: 'c',
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta: { content: '2年です。' }, finish_reason: 'stop' }],
        }
        response.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`)
        return
      }
      response.writeHead(404)
      response.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
  return { baseUrl, bodies, close: () => new Promise((resolve) => server.close(resolve)) }
}

it('turns a reasoning model’s thinking off on Ollama by reasoning_effort "none", and sends it to no other server', async () => {
  for (const kind of ['ollama', 'llama-server'] as const) {
    const server = await serverLike(kind)
    try {
      const generator = openAiCompatibleGenerator({
        baseUrl: server.baseUrl,
        model: 'qwen3:4b',
        contextSize: 4096,
        timeoutMs: 10_000,
      })
      await generator.check()
      const answer = await generator.generate({ system: 's', prompt: 'p', maxTokens: 16, temperature: 0 })
      expect(answer.text).toBe('2年です。')
      expect(server.bodies[0]?.reasoning_effort, kind).toBe(kind === 'ollama' ? 'none' : undefined)
      expect(server.bodies[0]?.chat_template_kwargs).toEqual({ enable_thinking: false })
    } finally {
      await server.close()
    }
  }
})

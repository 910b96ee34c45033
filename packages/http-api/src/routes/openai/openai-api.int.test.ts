import { fileURLToPath } from 'node:url'
import { ingestSamples } from '@rag/ingest/testing'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../../testing-server.ts'

// The official openai package as a real client of the gateway, the way chat UIs and SDK users
// connect: the sample manual in a "manuals" collection, keyword search and extractive answers (no
// model needed, so the citations are known).
const _sampleDir = fileURLToPath(new URL('../../../../../data/sample/', import.meta.url))
const KEY = 'openai-test-key'

let server: GatewayServer
let client: OpenAI

beforeAll(async () => {
  server = await startGatewayServer('openai-api', {
    gateway: { access: { apiKeys: [KEY], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  })
  await ingestSamples(server.fixture, server.dir, ['lumina-guide.pdf', 'faq.csv'], { collection: 'manuals' })
  await ingestSamples(server.fixture, server.dir, ['setup.md'], { collection: 'default' })
  client = new OpenAI({ baseURL: `${server.baseUrl}/v1`, apiKey: KEY, maxRetries: 0 })
})

afterAll(async () => {
  await server?.close()
})

describe('the OpenAI-compatible API through the openai package', () => {
  it('lists one model per collection and "all"', async () => {
    const models = await client.models.list()
    expect(models.data.map((model) => model.id)).toEqual(['all', 'default', 'manuals'])
    expect((await client.models.retrieve('manuals')).id).toBe('manuals')
  })

  it('answers without streaming, citing its passage in the text and in citations', async () => {
    const completion = await client.chat.completions.create({
      model: 'manuals',
      messages: [{ role: 'user', content: '保証期間は何年ですか' }],
      max_tokens: 64,
      temperature: 0,
    })
    const content = completion.choices[0]?.message.content ?? ''
    expect(content).toContain('2年間')
    expect(content).toContain('出典:\n[1] lumina-guide.pdf:p5')
    expect(completion.choices[0]?.finish_reason).toBe('stop')
    expect(completion.choices[0]?.message.refusal).toBeNull()
    expect(completion.object).toBe('chat.completion')
    const citations = (completion as unknown as { citations: { sourceId: string }[] }).citations
    expect(citations.map((c) => c.sourceId)).toEqual(['lumina-guide.pdf:p5'])
    // The short answer as the Ask view and the CLI show it: the span, its kind, its sentence.
    const short = (completion as unknown as { short_answer: Record<string, string> | null }).short_answer
    expect(short).toMatchObject({ text: '2年間', type: 'date', line: '短い答え（日時・期間）: 2年間' })
    expect(short?.evidence).toContain('2年間')
  })

  it('lists the passages a refusal looked at after it, marked as not enough, and in looked_at', async () => {
    const completion = await client.chat.completions.create({
      model: 'manuals',
      messages: [{ role: 'user', content: '保証書を紛失したときの再発行の手数料はいくらですか' }],
    })
    const content = completion.choices[0]?.message.content ?? ''
    const extra = completion as unknown as { citations: unknown[]; looked_at: { sourceId: string }[] }
    expect(content).toMatch(/見つかりませんでした/)
    expect(extra.citations).toEqual([])
    expect(extra.looked_at.length).toBeGreaterThan(0)
    expect(content).toContain(`確認した箇所（答えるには不十分）:\n[1] ${extra.looked_at[0]?.sourceId}`)
  })

  it('keeps to the model’s collection', async () => {
    const completion = await client.chat.completions.create({
      model: 'default',
      messages: [{ role: 'user', content: '保証期間は何年ですか' }],
    })
    expect(completion.choices[0]?.message.content).not.toContain('lumina-guide.pdf')
  })

  it('streams like a chat UI: models, then a chat with a system message and history, ending with [DONE]', async () => {
    const models = await client.models.list()
    const stream = await client.chat.completions.create({
      model: models.data[0]?.id ?? 'all',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: '保証期間は何年ですか' },
        { role: 'assistant', content: '保証期間はお買い上げ日から2年間です。[1]' },
        { role: 'user', content: 'その保証書は何と一緒に保管しますか' },
      ],
    })
    let content = ''
    const finishes: (string | null)[] = []
    let citations: { sourceId: string }[] = []
    let usage: unknown
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk')
      const choice = chunk.choices[0]
      if (choice) {
        content += choice.delta.content ?? ''
        finishes.push(choice.finish_reason)
      }
      const extra = chunk as unknown as { citations?: { sourceId: string }[] }
      if (extra.citations) citations = extra.citations
      if (chunk.usage) usage = chunk.usage
    }
    expect(content).toContain('領収書')
    expect(finishes.filter(Boolean)).toEqual(['stop'])
    expect(citations.map((c) => c.sourceId)).toEqual(['lumina-guide.pdf:p5'])
    expect(usage).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
  })

  it('answers Open WebUI’s own tasks (a chat title, tags) at once, without asking the documents', async () => {
    const questions = async () =>
      (await server.fixture.db.pool.query('SELECT count(*)::int AS n FROM questions')).rows[0]?.n as number
    const before = await questions()
    const titleTask = `### Task:
Generate a concise, 3-5 word title with an emoji summarizing the chat history.
### Guidelines:
- The title should clearly represent the main theme or subject of the conversation.
### Output:
JSON format: { "title": "your concise title here" }
### Chat History:
<chat_history>
USER: 保証期間は何年ですか
ASSISTANT: 2年間です。[1]
</chat_history>`
    const title = await client.chat.completions.create({
      model: 'manuals',
      messages: [{ role: 'user', content: titleTask }],
    })
    expect(JSON.parse(title.choices[0]?.message.content ?? '')).toEqual({ title: '保証期間は何年ですか' })
    const pieces: string[] = []
    const stream = await client.chat.completions.create({
      model: 'manuals',
      stream: true,
      messages: [{ role: 'user', content: titleTask }],
    })
    for await (const chunk of stream) pieces.push(chunk.choices[0]?.delta?.content ?? '')
    expect(JSON.parse(pieces.join(''))).toEqual({ title: '保証期間は何年ですか' })
    const tags = await client.chat.completions.create({
      model: 'manuals',
      messages: [
        {
          role: 'user',
          content:
            '### Task:\nGenerate 1-3 broad tags categorizing the main themes of the chat history.\n### Output:\nJSON format: { "tags": ["tag1"] }',
        },
      ],
    })
    expect(JSON.parse(tags.choices[0]?.message.content ?? '')).toEqual({ tags: [] })
    expect(await questions()).toBe(before)
  })

  it('says what is wrong in OpenAI’s error shape', async () => {
    const failure = async (request: Promise<unknown>) => {
      const error = (await request.catch((caught: unknown) => caught)) as InstanceType<typeof OpenAI.APIError>
      expect(error).toBeInstanceOf(OpenAI.APIError)
      return { status: error.status, type: error.type, code: error.code, message: error.message }
    }
    expect(await failure(client.chat.completions.create({ model: 'all', messages: [] }))).toMatchObject({
      status: 400,
      type: 'invalid_request_error',
    })
    expect(
      await failure(
        client.chat.completions.create({ model: 'all', messages: [{ role: 'assistant', content: 'hello' }] }),
      ),
    ).toMatchObject({ status: 400, message: expect.stringContaining('last message must be from the user') })
    expect(
      await failure(
        client.chat.completions.create({ model: 'nope', messages: [{ role: 'user', content: 'hi' }] }),
      ),
    ).toMatchObject({ status: 404, code: 'model_not_found' })
    expect(
      await failure(
        client.chat.completions.create({
          model: 'all',
          messages: [{ role: 'user', content: 'あ'.repeat(2001) }],
        }),
      ),
    ).toMatchObject({ status: 413, code: 'message_too_long' })
    expect(
      await failure(
        client.chat.completions.create({ model: 'all', n: 2, messages: [{ role: 'user', content: 'hi' }] }),
      ),
    ).toMatchObject({ status: 400, message: expect.stringContaining('n = 1') })
    expect(await failure(client.models.retrieve('nope'))).toMatchObject({
      status: 404,
      code: 'model_not_found',
    })
    const stranger = new OpenAI({ baseURL: `${server.baseUrl}/v1`, apiKey: 'wrong', maxRetries: 0 })
    expect(await failure(stranger.models.list())).toMatchObject({ status: 401 })
  })
})

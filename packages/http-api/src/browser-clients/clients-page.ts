// Bundled for the browser by clients-in-browser.int.test.ts: the third-party clients a web page of
// another origin uses against the gateway, each exactly as its documentation shows.
import { fetchEventSource } from '@microsoft/fetch-event-source'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import OpenAI from 'openai'

const QUESTION = '保証期間は何年ですか'

async function runClients({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const authorization = `Bearer ${apiKey}`

  // The openai SDK sends its x-stainless-* headers: the preflight must allow them. (A model is a
  // collection; `all` searches every one.)
  const openai = new OpenAI({
    baseURL: `${baseUrl}/v1`,
    apiKey,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
  })
  const completion = await openai.chat.completions.create({
    model: 'all',
    messages: [{ role: 'user', content: QUESTION }],
  })
  let streamed = ''
  const stream = await openai.chat.completions.create({
    model: 'all',
    messages: [{ role: 'user', content: QUESTION }],
    stream: true,
  })
  for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? ''

  // The MCP SDK sends mcp-protocol-version (and reads mcp-session-id).
  const mcp = new Client({ name: 'browser-agent', version: '1.0.0' })
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
      requestInit: { headers: { authorization } },
    }),
  )
  const tools = (await mcp.listTools()).tools.map((tool) => tool.name).sort()
  const found = (await mcp.callTool({
    name: 'search',
    arguments: { query: QUESTION, mode: 'keyword', top_k: 1 },
  })) as { structuredContent?: { hits: { sourceId: string }[] } }
  await mcp.close()

  // A question's event stream, dropped after its first event and resumed with Last-Event-ID.
  const asked = (await (
    await fetch(`${baseUrl}/ask`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ question: QUESTION, options: { mode: 'keyword' } }),
    })
  ).json()) as { id: string }
  const events = `${baseUrl}/ask/${asked.id}/events`
  const first: { id: string; event: string }[] = []
  const drop = new AbortController()
  await fetchEventSource(events, {
    headers: { authorization },
    signal: drop.signal,
    openWhenHidden: true,
    onmessage: (message) => {
      first.push({ id: message.id, event: message.event })
      drop.abort()
    },
  })
  const resumed: { id: string; event: string }[] = []
  const end = new AbortController()
  // The question may have finished before the first connection (its first event then `done`): a
  // client that had `done` is answered 204 on resuming, which tells it there is nothing more.
  let resumedStatus = 0
  await fetchEventSource(events, {
    headers: { authorization, 'last-event-id': first[0]?.id ?? '' },
    signal: end.signal,
    openWhenHidden: true,
    onopen: async (response) => {
      resumedStatus = response.status
      if (response.status === 204) end.abort()
      else if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
        throw new Error(`not an event stream: ${response.status}`)
    },
    onmessage: (message) => {
      resumed.push({ id: message.id, event: message.event })
      if (message.event === 'done') end.abort()
    },
    onerror: (error) => {
      throw error
    },
  })

  return {
    completion: completion.choices[0]?.message.content ?? null,
    streamed,
    tools,
    hit: found.structuredContent?.hits[0]?.sourceId ?? null,
    first,
    resumed,
    resumedStatus,
  }
}

Object.assign(globalThis, { runClients })

import { spawn } from 'node:child_process'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { processEnvironment } from '@rag/config'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The MCP server as an MCP client runs it: spawned over stdio, talking to a real gateway.
const sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
const main = fileURLToPath(new URL('./main.ts', import.meta.url))
let server: GatewayServer
let client: Client

beforeAll(async () => {
  server = await startGatewayServer('mcp')
  client = new Client({ name: 'rag-test', version: '0.0.0' })
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', import.meta.resolve('tsx'), main],
      env: {
        ...(processEnvironment() as Record<string, string>),
        GATEWAY_URL: server.baseUrl,
        LOG_LEVEL: 'silent',
      },
      stderr: 'ignore',
    }),
  )
})
afterAll(async () => {
  await client?.close()
  await server?.close()
})

type Result = {
  content: { type: string; text: string }[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
}
const progress: { progress: number; message?: string }[] = []
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args }, undefined, {
    onprogress: (notification) => progress.push(notification),
    resetTimeoutOnProgress: true,
  })) as Result
// The structured content, checked to be what the text says too.
const json = (result: Result) => {
  const parsed = JSON.parse(result.content[0]?.text ?? 'null')
  if (!result.isError) expect(result.structuredContent).toEqual(parsed)
  return parsed
}

describe('the MCP server', () => {
  it('lists its seven tools, each parameter described, with annotations and output schemas, and its version', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask',
      'chat',
      'get_document',
      'give_feedback',
      'ingest_path',
      'list_documents',
      'search',
    ])
    for (const tool of tools) {
      const properties = tool.inputSchema.properties as Record<string, { description?: string }>
      for (const [name, property] of Object.entries(properties))
        expect(property.description, `${tool.name}.${name}`).toMatch(/\S/)
      expect(tool.outputSchema, tool.name).toBeDefined()
      // Reading tools are read-only; ingest_path adds documents, chat adds turns to a conversation
      // and give_feedback records a verdict.
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(
        !['ingest_path', 'chat', 'give_feedback'].includes(tool.name),
      )
    }
    expect(client.getServerVersion()).toMatchObject({ name: 'rag-platform', version: '1.0.0' })
  })

  it('ingests a folder, lists, searches, asks and reads a document', async () => {
    const folder = join(server.dir, 'to-ingest')
    await mkdir(folder, { recursive: true })
    await copyFile(join(sampleDir, 'lumina-guide.pdf'), join(folder, 'lumina-guide.pdf'))
    await copyFile(join(sampleDir, 'faq.csv'), join(folder, 'faq.csv'))
    await writeFile(join(folder, 'clip.mp4'), 'mp4')
    progress.length = 0
    const ingested = json(await call('ingest_path', { path: folder }))
    expect(
      ingested.documents.map((d: { file: string; status: string }) => [d.file, d.status]).sort(),
    ).toEqual([
      ['faq.csv', 'ready'],
      ['lumina-guide.pdf', 'ready'],
    ])
    // Unsupported files inside a folder are left out, and said so.
    expect(ingested.skipped).toEqual([{ path: join(folder, 'clip.mp4'), reason: 'unsupported file type' }])
    expect(progress.length).toBeGreaterThan(0)

    const listed = json(await call('list_documents', {}))
    expect(listed.documents.map((d: { filename: string }) => d.filename).sort()).toEqual([
      'faq.csv',
      'lumina-guide.pdf',
    ])

    const found = json(await call('search', { query: 'アームの角度', top_k: 2, mode: 'keyword' }))
    expect(found.hits[0].sourceId).toBe('faq.csv:r2')

    // A collection that does not exist is an error naming it, not an empty list of hits.
    const inCollection = await call('search', { query: 'アームの角度', collection: 'elsewhere' })
    expect(inCollection.isError).toBe(true)
    expect(inCollection.content[0]?.text).toMatch(/no collection "elsewhere"/)

    progress.length = 0
    const answered = json(
      await call('ask', {
        question: '保証期間は何年ですか',
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    )
    expect(answered.refused).toBe(false)
    expect(answered.answer).toContain('2年間')
    expect(answered.passages[0].sourceId).toBe('lumina-guide.pdf:p5')
    expect(answered.passages[0].text).toContain('2年間')
    // The person says it was right, through the agent: kept with the question for review.
    const feedback = json(await call('give_feedback', { question_id: answered.id, verdict: 'up' }))
    expect(feedback).toMatchObject({ verdict: 'up', reason: null })
    // Progress while waiting, counting up, saying where the question is.
    // (The last one may cross the result on the wire; the client then drops it.)
    expect(progress.length).toBeGreaterThan(0)
    for (const { message } of progress)
      expect(message).toMatch(/^question (queued|retrieving|reranking|generating|done)$/)
    expect(progress.map((p) => p.progress).sort()).toEqual(progress.map((_, i) => i + 1))

    // A conversation: the follow-up is rewritten from the first turn and finds the same page.
    const first = json(
      await call('chat', {
        message: '保証期間は何年ですか',
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    )
    expect(first.passages[0].sourceId).toBe('lumina-guide.pdf:p5')
    const followUp = json(
      await call('chat', {
        message: 'その保証書は何と一緒に保管しますか',
        conversationId: first.conversationId,
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    )
    expect(followUp.conversationId).toBe(first.conversationId)
    expect(followUp.answer).toContain('領収書')

    const pdf = listed.documents.find((d: { filename: string }) => d.filename === 'lumina-guide.pdf')
    const document = json(await call('get_document', { id: pdf.id }))
    expect(document.sections.map((s: { sourceId: string }) => s.sourceId)).toEqual(
      [1, 2, 3, 4, 5].map((p) => `lumina-guide.pdf:p${p}`),
    )

    // Each document is a resource too.
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.name).sort()).toEqual(['faq.csv', 'lumina-guide.pdf'])
    const read = await client.readResource({ uri: `rag://documents/${pdf.id}` })
    const text = (read.contents[0] as { text: string }).text
    expect(text).toMatch(/^## lumina-guide\.pdf:p1\n/)
    expect(text).toContain('## lumina-guide.pdf:p5')
  })

  it('answers bad input with MCP errors and keeps serving', async () => {
    const badId = await call('get_document', { id: 'not-a-uuid' })
    expect(badId.isError).toBe(true)
    expect(badId.content[0]?.text).toMatch(/invalid path parameter id: expected a UUID/)
    const empty = await call('ask', { question: '' })
    expect(empty.isError).toBe(true)
    expect(empty.content[0]?.text).toMatch(/question/)
    const picture = join(server.dir, 'clip.mp4')
    await writeFile(picture, 'mp4')
    const unsupported = await call('ingest_path', { path: picture })
    expect(unsupported.isError).toBe(true)
    expect(unsupported.content[0]?.text).toMatch(/clip\.mp4: unsupported file type/)
    const missing = await call('ingest_path', { path: join(server.dir, 'nope') })
    expect(missing.isError).toBe(true)
    expect(missing.content[0]?.text).toMatch(/no such file or folder/)
    const unknownThread = await call('chat', {
      message: 'hi',
      conversationId: '6f1c0a52-3a5e-4b7f-9d3e-0c6a1e2b7f10',
    })
    expect(unknownThread.isError).toBe(true)
    expect(unknownThread.content[0]?.text).toMatch(/no such conversation/)
    expect((await client.listTools()).tools).toHaveLength(7)
  })
})

describe('started by pnpm', () => {
  it("says on stderr how to keep pnpm's banner out of the protocol stream", async () => {
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), main], {
      env: {
        ...(processEnvironment() as Record<string, string>),
        GATEWAY_URL: server.baseUrl,
        LOG_LEVEL: 'silent',
        npm_lifecycle_event: 'mcp',
        npm_config_reporter: '',
      },
      stdio: ['pipe', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.setEncoding('utf8')
    try {
      for await (const chunk of child.stderr) {
        stderr += chunk
        if (stderr.includes('\n')) break
      }
    } finally {
      child.kill()
    }
    expect(stderr).toMatch(/register the server as `pnpm --silent mcp`/)
  })
})

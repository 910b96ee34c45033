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

type Result = { content: { type: string; text: string }[]; isError?: boolean }
const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result
const json = (result: Result) => JSON.parse(result.content[0]?.text ?? 'null')

describe('the MCP server', () => {
  it('lists its five tools', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ask',
      'get_document',
      'ingest_path',
      'list_documents',
      'search',
    ])
  })

  it('ingests a folder, lists, searches, asks and reads a document', async () => {
    const folder = join(server.dir, 'to-ingest')
    await mkdir(folder, { recursive: true })
    await copyFile(join(sampleDir, 'lumina-guide.pdf'), join(folder, 'lumina-guide.pdf'))
    await copyFile(join(sampleDir, 'faq.csv'), join(folder, 'faq.csv'))
    await writeFile(join(folder, 'image.png'), 'png')
    const ingested = json(await call('ingest_path', { path: folder }))
    expect(
      ingested.documents.map((d: { file: string; status: string }) => [d.file, d.status]).sort(),
    ).toEqual([
      ['faq.csv', 'ready'],
      ['lumina-guide.pdf', 'ready'],
    ])
    // Unsupported files inside a folder are left out (the listing below has only the two).

    const listed = json(await call('list_documents', {}))
    expect(listed.map((d: { filename: string }) => d.filename).sort()).toEqual([
      'faq.csv',
      'lumina-guide.pdf',
    ])

    const found = json(await call('search', { query: 'アームの角度', top_k: 2, mode: 'keyword' }))
    expect(found.hits[0].sourceId).toBe('faq.csv:r2')

    const answered = json(
      await call('ask', {
        question: '保証期間は何年ですか',
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    )
    expect(answered.refused).toBe(false)
    expect(answered.answer).toContain('2年間')
    expect(answered.sources[0].sourceId).toBe('lumina-guide.pdf:p5')

    const pdf = listed.find((d: { filename: string }) => d.filename === 'lumina-guide.pdf')
    const document = json(await call('get_document', { id: pdf.id }))
    expect(document.sections.map((s: { sourceId: string }) => s.sourceId)).toEqual(
      [1, 2, 3, 4, 5].map((p) => `lumina-guide.pdf:p${p}`),
    )
  })

  it('answers bad input with MCP errors and keeps serving', async () => {
    const badId = await call('get_document', { id: 'not-a-uuid' })
    expect(badId.isError).toBe(true)
    expect(badId.content[0]?.text).toMatch(/invalid path parameter id: expected a UUID/)
    const empty = await call('ask', { question: '' })
    expect(empty.isError).toBe(true)
    expect(empty.content[0]?.text).toMatch(/question/)
    const picture = join(server.dir, 'picture.png')
    await writeFile(picture, 'png')
    const unsupported = await call('ingest_path', { path: picture })
    expect(unsupported.isError).toBe(true)
    expect(unsupported.content[0]?.text).toMatch(/picture\.png: unsupported file type/)
    const missing = await call('ingest_path', { path: join(server.dir, 'nope') })
    expect(missing.isError).toBe(true)
    expect(missing.content[0]?.text).toMatch(/no such file or folder/)
    expect((await client.listTools()).tools).toHaveLength(5)
  })
})

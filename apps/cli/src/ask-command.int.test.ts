import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGatewayClient } from '@rag/gateway-client'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestSamples } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runAskCommand } from './ask-command.ts'
import { captureLines } from './testing/capture-lines.ts'

const _sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
let server: GatewayServer

beforeAll(async () => {
  server = await startGatewayServer('cli-ask')
  await ingestSamples(server.fixture, join(server.dir, 'uploads'))
})
afterAll(() => server?.close())

const ask = async (question: string, options: Record<string, unknown> = {}, json = false) => {
  const out = captureLines()
  const progress = captureLines()
  const code = await runAskCommand({
    question,
    options,
    client: createGatewayClient({ baseUrl: server.baseUrl }),
    output: out.output,
    progress: progress.output,
    json,
  })
  return { code, lines: out.lines, progress: progress.lines }
}

describe('pnpm ask', () => {
  it('prints the answer, then its sources one per line', async () => {
    const { code, lines, progress } = await ask('保証期間は何年ですか', { mode: 'keyword', topK: 2 })
    expect(code, [...lines, ...progress].join('\n')).toBe(0)
    expect(lines[0]).toBe('=== Answer ===')
    const split = lines.indexOf('=== Sources ===')
    expect(lines.slice(1, split).join('\n')).toContain('2年間')
    // The short answer stated as on every surface, with the kind of answer it is.
    expect(lines).toContain('短い答え（日時・期間）: 2年間')
    const sources = lines.slice(split + 1)
    expect(sources[0]).toBe('- lumina-guide.pdf:p5')
    expect(sources.length).toBeLessThanOrEqual(2)
    expect(progress.at(-1)).toBe('done…')
  })

  it("names a Markdown source's lines beside it", async () => {
    const { code, lines } = await ask('エラーコード E-34 の意味', { mode: 'keyword', topK: 1 })
    expect(code).toBe(0)
    expect(lines.at(-1)).toBe('- setup.md#ペアリングできないとき (lines 18–25)')
  })

  it('says so when the documents hold no answer', async () => {
    const { code, lines, progress } = await ask('What is the capital of Australia?')
    expect(code, [...lines, ...progress].join('\n')).toBe(0)
    expect(lines[1]).toMatch(/do not contain information/)
    expect(lines).toContain('(refused: the documents hold no answer above the evidence threshold)')
    // The passages it looked at stay listed, marked as not enough: the same the answer names.
    expect(lines).not.toContain('=== Sources ===')
    const looked = lines
      .slice(lines.indexOf('=== Looked at, not enough ===') + 1)
      .map((line) => line.replace(/^- /, '').replace(/ \(lines .*$/, ''))
    const named = /looked at: (.+)\.$/.exec(lines[1] ?? '')?.[1]?.split(', ') ?? []
    for (const sourceId of named) expect(looked).toContain(sourceId)
  })

  it('prints the whole result as JSON with --json', async () => {
    const { lines } = await ask('LEDの寿命は？', { mode: 'keyword' }, true)
    const result = JSON.parse(lines.join('\n')) as { sources: { sourceId: string }[] }
    expect(result.sources[0]?.sourceId).toBe('faq.csv:r4')
  })

  it('reports a refused request with the gateway message', async () => {
    await expect(ask('x', { mode: 'magic' })).rejects.toThrow(/options\.mode/)
  })
})

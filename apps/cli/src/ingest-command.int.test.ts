import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGatewayClient } from '@rag/gateway-client'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIngestCommand } from './ingest-command.ts'
import { captureLines as capture } from './testing/capture-lines.ts'

// The CLI against a real gateway on a real port, with the ingestion workers running.
const sampleDir = fileURLToPath(new URL('../../../data/sample/', import.meta.url))
let server: GatewayServer
let baseUrl: string
let dir: string

beforeAll(async () => {
  server = await startGatewayServer('cli-ingest')
  ;({ baseUrl, dir } = server)
})
afterAll(() => server?.close())

describe('pnpm ingest', () => {
  it('ingests a folder and exits 0 when every document is ready', async () => {
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [sampleDir],
      client: createGatewayClient({ baseUrl }),
      output,
    })
    expect(code, lines.join('\n')).toBe(0)
    expect(lines).toContain(`ready ${join(sampleDir, 'lumina-guide.pdf')} (5 chunks)`)
    expect(lines.at(-1)).toBe('5 ready, 0 failed')
    // Without a terminal, the stages a file moves through are lines; where it ends, one line.
    const endings = (all: string[], path: string) => all.filter((line) => line.includes(` ${path} (`))
    expect(endings(lines, join(sampleDir, 'faq.csv'))).toHaveLength(1)
    expect(lines.some((line) => line.endsWith('faq.csv: ready'))).toBe(false)

    // The same folder again: every file said unchanged, one line each, nothing else but the total.
    const again = capture()
    const second = await runIngestCommand({
      paths: [sampleDir],
      client: createGatewayClient({ baseUrl }),
      output: again.output,
    })
    expect(second, again.lines.join('\n')).toBe(0)
    expect(again.lines).toContain(`unchanged ${join(sampleDir, 'lumina-guide.pdf')} (5 chunks)`)
    expect(again.lines.filter((line) => line.startsWith('unchanged '))).toHaveLength(5)
    expect(again.lines).toHaveLength(6)
    expect(again.lines.at(-1)).toBe('5 ready, 0 failed')
  })

  it('exits 1 with the reasons when a file fails or is refused', async () => {
    await writeFile(join(dir, 'broken.pdf'), 'not a pdf')
    await writeFile(join(dir, 'ok.txt'), 'fine text')
    await writeFile(join(dir, 'clip.mp4'), 'mp4')
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [
        join(dir, 'broken.pdf'),
        join(dir, 'ok.txt'),
        join(dir, 'clip.mp4'),
        join(dir, 'missing.md'),
        // A web page is fetched by the gateway, which refuses loopback by default (SSRF).
        'http://127.0.0.1:9/intranet.html',
      ],
      client: createGatewayClient({ baseUrl }),
      output,
    })
    expect(code, lines.join('\n')).toBe(1)
    expect(lines).toContain(`FAILED ${join(dir, 'broken.pdf')}: parse: not a PDF file (no %PDF header)`)
    expect(lines).toContain(`FAILED ${join(dir, 'clip.mp4')}: unsupported file type`)
    expect(lines).toContain(`FAILED ${join(dir, 'missing.md')}: no such file or folder`)
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^FAILED http:\/\/127\.0\.0\.1:9\/intranet\.html: .*private address.*URL_FETCH_ALLOW_PRIVATE/,
      ),
    )
    expect(lines.at(-1)).toBe('1 ready, 4 failed')
  })

  it('keeps same-named files of different folders apart by their path in the folder', async () => {
    const folder = join(dir, 'handbooks')
    await mkdir(join(folder, 'a'), { recursive: true })
    await mkdir(join(folder, 'b'), { recursive: true })
    await writeFile(join(folder, 'a', 'README.md'), '# A\n\nthe first readme')
    await writeFile(join(folder, 'b', 'README.md'), '# B\n\nthe second readme')
    const { lines, output } = capture()
    const client = createGatewayClient({ baseUrl })
    const code = await runIngestCommand({
      paths: [folder],
      client,
      output,
      collection: 'handbooks',
    })
    expect(code, lines.join('\n')).toBe(0)
    expect(lines.at(-1)).toBe('2 ready, 0 failed')
    const names = (await client.listDocuments({ collection: 'handbooks' })).map((d) => d.filename).sort()
    expect(names).toEqual(['a/README.md', 'b/README.md'])
  })

  it('says how to start the gateway when it cannot be reached', async () => {
    await writeFile(join(dir, 'a.txt'), 'x')
    const { lines, output } = capture()
    const code = await runIngestCommand({
      paths: [join(dir, 'a.txt')],
      client: createGatewayClient({ baseUrl: 'http://127.0.0.1:9' }),
      output,
    })
    expect(code, lines.join('\n')).toBe(1)
    expect(lines.join('\n')).toMatch(/cannot reach the gateway at http:\/\/127\.0\.0\.1:9 .*pnpm start/)
  })
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { ingestSamples } from '@rag/ingest/testing'
import { build } from 'esbuild'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'
import { hasChromium, launchTestChromium } from './test-chromium.ts'

// Third-party clients in a real browser (Debian's Chromium), on a page of another origin listed
// in CORS_ORIGINS: what a web developer's page meets, preflights and all. From Node no CORS applies.
const KEY = 'browser-clients-key-0123456789'

let page: Server
let pageOrigin: string
let gateway: GatewayServer
let browser: Browser

/** The page's own origin: an HTML page loading the clients, bundled for the browser. */
async function servePage(): Promise<Server> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./clients-page.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  })
  const script = bundle.outputFiles[0]?.text ?? ''
  const server = createServer((request, response) => {
    if (request.url === '/clients.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script)
      return
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>another site</title><script type="module" src="/clients.js"></script>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server
}

beforeAll(async () => {
  if (!hasChromium) return
  page = await servePage()
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
  gateway = await startGatewayServer('browser-clients', {
    gateway: { access: { apiKeys: [KEY], corsOrigins: [pageOrigin], askPerMinute: 0, uploadsPerMinute: 0 } },
  })
  await ingestSamples(gateway.fixture, gateway.dir, ['lumina-guide.pdf'])
  browser = await launchTestChromium()
})
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)))
})

it.skipIf(!hasChromium)(
  'the openai SDK, the MCP SDK over HTTP and a resuming fetch-event-source work from another origin',
  async () => {
    const tab = await browser.newPage()
    const refused: string[] = []
    tab.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text())
    })
    await tab.goto(pageOrigin)
    await tab.waitForFunction(() => 'runClients' in globalThis)
    const result = await tab.evaluate(
      (options) =>
        (
          globalThis as unknown as { runClients(o: typeof options): Promise<Record<string, unknown>> }
        ).runClients(options),
      { baseUrl: gateway.baseUrl, apiKey: KEY },
    )
    expect(refused).toEqual([])
    expect(result.completion).toMatch(/2年間/)
    expect(result.streamed).toBe(result.completion)
    expect(result.tools).toEqual(['ask', 'chat', 'get_document', 'give_feedback', 'list_documents', 'search'])
    expect(result.hit).toBe('lumina-guide.pdf:p5')
    // Resumed after the first event: nothing of it again, and on to the end; or, when that first
    // event was already `done`, 204: nothing more to send (either way through CORS with Last-Event-ID).
    const first = result.first as { id: string; event: string }[]
    const resumed = result.resumed as { id: string; event: string }[]
    expect(first).toHaveLength(1)
    if (first[0]?.event === 'done') {
      expect(result.resumedStatus).toBe(204)
      expect(resumed).toEqual([])
    } else {
      expect(result.resumedStatus).toBe(200)
      expect(resumed.map((event) => event.id)).not.toContain(first[0]?.id)
      expect(resumed.at(-1)?.event).toBe('done')
    }
    await tab.close()
  },
)

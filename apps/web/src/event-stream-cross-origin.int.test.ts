import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestTexts } from '@rag/ingest/testing'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchTestChromium } from './test-browser.ts'

// A page of another origin (a chat UI of its own, listed in CORS_ORIGINS) follows an answer with
// the browser's own EventSource, which cannot send a key: with a stream ticket it can.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const KEY = 'cross-origin-stream-key-0123456789'

const PAGE = `<!doctype html><html><body><script type="module">
const [gateway, key] = decodeURIComponent(location.hash.slice(1)).split('|')
const headers = { authorization: 'Bearer ' + key, 'content-type': 'application/json' }
const asked = await fetch(gateway + '/ask', {
  method: 'POST',
  headers,
  body: JSON.stringify({ question: '有給休暇は何日ですか', options: { answer: 'extractive' } }),
})
const { id } = await asked.json()
// Without a ticket the browser's EventSource has no way to say who it is.
const plain = new EventSource(gateway + '/ask/' + id + '/events')
plain.onerror = () => { window.plainRefused = true; plain.close() }
const ticket = await (await fetch(gateway + '/ask/' + id + '/stream-ticket', { method: 'POST', headers })).json()
const stream = new EventSource(gateway + ticket.events)
stream.addEventListener('done', (event) => { window.done = JSON.parse(event.data); stream.close() })
</script></body></html>`

describe.skipIf(!hasChromium)('an answer followed from another origin', () => {
  let page: Server
  let pageOrigin: string
  let server: GatewayServer
  let browser: Browser

  beforeAll(async () => {
    page = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      response.end(PAGE)
    })
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve))
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`
    server = await startGatewayServer('web-cross-origin', {
      gateway: {
        access: { apiKeys: [KEY], corsOrigins: [pageOrigin], askPerMinute: 0, uploadsPerMinute: 0 },
      },
    })
    await ingestTexts(server.fixture, join(server.dir, 'uploads'), {
      'leave.txt': '有給休暇は年に二十日です。',
    })
    browser = await launchTestChromium(tests.chromiumPath)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await new Promise((resolve) => page?.close(resolve))
  })

  it("gets its events with a stream ticket, where the browser's EventSource alone is refused", async () => {
    const tab = await (await browser.newContext()).newPage()
    await tab.goto(`${pageOrigin}/#${encodeURIComponent(`${server.baseUrl}|${KEY}`)}`)
    await expect
      .poll(() => tab.evaluate(() => (window as unknown as { done?: { answer: string } }).done?.answer), {
        timeout: 60_000,
      })
      .toContain('二十日')
    await expect
      .poll(() => tab.evaluate(() => (window as unknown as { plainRefused?: boolean }).plainRefused))
      .toBe(true)
  })
})

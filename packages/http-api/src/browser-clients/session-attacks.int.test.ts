import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'
import { hasChromium, launchTestChromium } from './test-chromium.ts'

// A victim signed in to the web app as an admin visits a page on another port of the same host:
// cookies are per host, not per port, so that page can navigate the victim's tab to the gateway
// and set cookies the gateway receives. Neither may make the victim act as the attacker.
const ADMIN_KEY = 'session-attacks-admin-key-0123456789'

let attackerSite: Server
let attackerOrigin: string
let gateway: GatewayServer
let browser: Browser
let attackerKey: string

beforeAll(async () => {
  if (!hasChromium) return
  gateway = await startGatewayServer('session-attacks', {
    gateway: { access: { apiKeys: [ADMIN_KEY], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
  })
  const made = await fetch(`${gateway.baseUrl}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'attacker', role: 'reader' }),
  })
  attackerKey = ((await made.json()) as { key: string }).key
  // The attacker's page: whatever it is told in its address, it does to the victim's browser.
  attackerSite = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x')
    const script =
      url.pathname === '/navigate'
        ? `location.href = ${JSON.stringify(`${gateway.baseUrl}/?api_key=${attackerKey}`)}`
        : `document.cookie = ${JSON.stringify(`rag_api_key=${attackerKey}; path=/ask`)}; document.title = 'tossed'`
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>${script}</script>`)
  })
  await new Promise<void>((resolve) => attackerSite.listen(0, '127.0.0.1', resolve))
  attackerOrigin = `http://127.0.0.1:${(attackerSite.address() as AddressInfo).port}`
  browser = await launchTestChromium()
})
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
  await new Promise((resolve) => (attackerSite ? attackerSite.close(resolve) : resolve(undefined)))
})

/** A browser signed in as the admin through POST /session, as the web app does. */
async function signedInAdmin(): Promise<{ context: BrowserContext; tab: Page }> {
  const context = await browser.newContext()
  const tab = await context.newPage()
  await tab.goto(`${gateway.baseUrl}/healthz`)
  const status = await tab.evaluate(
    async (key) =>
      (
        await fetch('/session', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiKey: key }),
        })
      ).status,
    ADMIN_KEY,
  )
  expect(status).toBe(204)
  return { context, tab }
}

/** Who the victim's own page is, asked at `path` with its cookies. */
const whoAt = (tab: Page, path: string) =>
  tab.evaluate(async (at) => {
    const response = await fetch(at)
    return { status: response.status, body: await response.text() }
  }, path)

it.skipIf(!hasChromium)(
  'a page elsewhere cannot sign the victim in as the attacker (login CSRF)',
  async () => {
    const { context, tab } = await signedInAdmin()
    const attack = await context.newPage()
    await attack.goto(`${attackerOrigin}/navigate`)
    await attack.waitForURL(`${gateway.baseUrl}/**`)
    await tab.goto(`${gateway.baseUrl}/healthz`)
    const session = JSON.parse((await whoAt(tab, '/session')).body) as { principal: { role: string } }
    expect(session.principal.role).toBe('admin')
    // And what the victim does next is still the admin's (a reader could not list keys).
    expect((await whoAt(tab, '/keys')).status).toBe(200)
    await context.close()
  },
)

it.skipIf(!hasChromium)(
  'a cookie tossed for /ask by another port is refused and cleared, never used',
  async () => {
    const { context, tab } = await signedInAdmin()
    const attack = await context.newPage()
    await attack.goto(`${attackerOrigin}/toss`)
    await attack.waitForFunction("document.title === 'tossed'")
    const sent = await tab.evaluate(async () => {
      const response = await fetch('/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'what does the warranty cover?' }),
      })
      return { status: response.status, body: await response.text() }
    })
    expect(sent.status).toBe(400)
    expect(sent.body).toMatch(/carries 2 rag_api_key cookies/)
    // The tossed cookie is gone: the victim's next question is the admin's, and /session never changed.
    const again = await tab.evaluate(
      async () =>
        (
          await fetch('/ask', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ question: 'what does the warranty cover?' }),
          })
        ).status,
    )
    expect(again).toBe(202)
    const cookies = await context.cookies(gateway.baseUrl)
    expect(cookies.filter((cookie) => cookie.name === 'rag_api_key').map((cookie) => cookie.path)).toEqual([
      '/',
    ])
    const session = JSON.parse((await whoAt(tab, '/session')).body) as { principal: { role: string } }
    expect(session.principal.role).toBe('admin')
    await context.close()
  },
)

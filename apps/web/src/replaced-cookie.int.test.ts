import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// Cookies do not tell ports apart: a page on another port of the same host can answer with a
// Set-Cookie that replaces the gateway's own at Path=/ — here with a real session of the
// attacker's own key. The admin's page must then be signed out, never act as the attacker.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const ADMIN = 'replaced-cookie-admin-key-0123456789'

let server: GatewayServer
let browser: Browser
let attackerSite: Server
let attackerOrigin: string

beforeAll(async () => {
  if (!hasChromium) return
  await requireWebAppBuild()
  server = await startGatewayServer('replaced-cookie', {
    gateway: {
      webAppDir,
      access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
    },
  })
  const made = await fetch(`${server.baseUrl}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'attacker', role: 'reader' }),
  })
  const attackerKey = ((await made.json()) as { key: string }).key
  // The attacker signs in with their own key and keeps the session cookie they are given.
  const signIn = await fetch(`${server.baseUrl}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: attackerKey }),
  })
  const attackerCookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? ''
  expect(attackerCookie).toMatch(/^rag_api_key=rag_kse_/)
  attackerSite = createServer((_request, response) => {
    response
      .writeHead(200, {
        'content-type': 'text/html',
        'set-cookie': `${attackerCookie}; Path=/; HttpOnly; SameSite=Lax`,
      })
      .end('<!doctype html><title>tossed</title>')
  })
  await new Promise<void>((resolve) => attackerSite.listen(0, '127.0.0.1', resolve))
  attackerOrigin = `http://127.0.0.1:${(attackerSite.address() as AddressInfo).port}`
  browser = await launchTestChromium(tests.chromiumPath)
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await new Promise((resolve) => (attackerSite ? attackerSite.close(resolve) : resolve(undefined)))
})

it.skipIf(!hasChromium)(
  "a cookie replaced at Path=/ from another port signs the admin's page out; it never acts as the attacker",
  async () => {
    const context = await browser.newContext({ locale: 'en-US' })
    const page = await context.newPage()
    await page.goto(server.baseUrl)
    await page.fill('form.key-prompt input', ADMIN)
    await page.click('form.key-prompt button[type=submit]')
    await expect.poll(() => page.locator('[data-principal]').textContent()).toContain('API_KEY (admin)')
    const before = (await context.cookies(server.baseUrl)).find((cookie) => cookie.name === 'rag_api_key')
    // The admin visits the other port; its answer replaces the cookie (the browser sees one host).
    const attack = await context.newPage()
    await attack.goto(attackerOrigin)
    const tossed = (await context.cookies(server.baseUrl)).find((cookie) => cookie.name === 'rag_api_key')
    expect(tossed?.value).not.toBe(before?.value)
    // Back on the app: its requests name the admin's sign-in, the cookie another's — refused and
    // cleared, so the page asks for a key instead of showing (and acting as) the attacker.
    await page.reload()
    await expect.poll(() => page.locator('form.key-prompt').count()).toBe(1)
    expect(await page.locator('[data-principal]').count()).toBe(0)
    await expect
      .poll(async () =>
        (await context.cookies(server.baseUrl)).filter((cookie) => cookie.name === 'rag_api_key'),
      )
      .toEqual([])
    // Signing in again works as before.
    await page.fill('form.key-prompt input', ADMIN)
    await page.click('form.key-prompt button[type=submit]')
    await expect.poll(() => page.locator('[data-principal]').textContent()).toContain('API_KEY (admin)')
    await context.close()
  },
)

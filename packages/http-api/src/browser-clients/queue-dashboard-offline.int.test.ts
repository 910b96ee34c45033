import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type GatewayServer, startGatewayServer } from '../testing.ts'
import { hasChromium, launchTestChromium } from './test-chromium.ts'

// The queue dashboard with no network beyond this machine (the product's promise): every request
// the page makes to another host is refused and recorded; the page must need none.

let gateway: GatewayServer
let browser: Browser

beforeAll(async () => {
  if (!hasChromium) return
  gateway = await startGatewayServer('dashboard-offline')
  browser = await launchTestChromium()
})
afterAll(async () => {
  await browser?.close()
  await gateway?.close()
})

it.skipIf(!hasChromium)('shows the queues offline, asking nothing of any other host', async () => {
  const page = await browser.newPage()
  const outside: string[] = []
  const local = new URL(gateway.baseUrl).host
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.host === local) return route.continue()
    outside.push(url.href)
    return route.abort('internetdisconnected')
  })
  await page.goto(`${gateway.baseUrl}/admin/queues`)
  await page.getByText('ingest.parse').first().waitFor({ timeout: 60_000 })
  expect(outside).toEqual([])
  await page.close()
})

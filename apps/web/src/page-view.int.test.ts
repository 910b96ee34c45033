import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestFiles } from '@rag/ingest/testing'
import { laidOutPdf } from '@rag/parsers/testing/laid-out-pdf'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { openTestProfile, requireWebAppBuild, type TestProfile } from './test-browser.ts'

// A cited table row shown where it stands: the web app opens its page as a picture and draws the
// row's region over it, in the right place. Debian's Chromium; the screenshot is kept.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const artifacts = join(fileURLToPath(new URL('../../../', import.meta.url)), 'test-artifacts')

let server: GatewayServer
let browser: TestProfile

beforeAll(async () => {
  if (!hasChromium) return
  await requireWebAppBuild()
  server = await startGatewayServer('web-page-view', { gateway: { webAppDir } })
  await ingestFiles(server.fixture, server.dir, [{ filename: 'price.pdf', data: await laidOutPdf() }])
  browser = await openTestProfile(tests.chromiumPath, {
    locale: 'ja-JP',
    viewport: { width: 1280, height: 1400 },
  })
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

it.skipIf(!hasChromium)('opens the cited page with the table row marked where it stands', async () => {
  const { page } = browser
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(`${server.baseUrl}/`)
  await page.click('nav a[data-view=ask]')
  await page.fill('[data-testid=question]', 'エンタープライズのストレージは？')
  await page.click('form.ask button[type=submit]')
  await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 60_000 })
  const first = page.locator('[data-testid=sources] > li').first()
  await expect.poll(() => first.getAttribute('data-source-id')).toBe('price.pdf:p1:t1:r3')
  await first.locator('[data-action=page]').click()
  const view = first.locator('[data-testid=page-view]')
  await view.locator('img').waitFor()
  await page.waitForFunction(() => {
    const image = document.querySelector('[data-testid=page-view] img') as HTMLImageElement | null
    return image?.complete === true && image.naturalWidth > 0
  })
  // The region covers the table's last row: inside the picture, in its upper third, full width of the table.
  const picture = await view.locator('img').boundingBox()
  const region = await view.locator('[data-testid=page-region]').first().boundingBox()
  if (!picture || !region) throw new Error('no picture or region shown')
  const relativeTop = (region.y - picture.y) / picture.height
  expect(relativeTop).toBeGreaterThan(0.2)
  expect(relativeTop).toBeLessThan(0.4)
  expect(region.width / picture.width).toBeGreaterThan(0.6)
  await mkdir(artifacts, { recursive: true })
  await view.screenshot({ path: join(artifacts, 'page-view.png') })
  expect(errors).toEqual([])
})

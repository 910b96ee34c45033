import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestFiles } from '@rag/ingest/testing'
import { scannedJapanesePdf, workbookWithMergedHeaders } from '@rag/parsers/testing/office-samples'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// A team member opens a document to see how it was cut: a scanned PDF (its page as a picture with
// the boxes OCR read, marked as OCR) and a workbook (its rows as tables); searches within it;
// sees the question that cited a chunk. Keyboard only, on a phone and a laptop, no console error.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const artifacts = join(webAppDir, '..', '..', '..', 'test-artifacts')
const LINES = ['保証期間はお買い上げ日から2年間です。', '満充電までの時間は約3時間です。']

describe.skipIf(!hasChromium)('the document inspector in the web app', () => {
  let server: GatewayServer
  let browser: Browser
  let scanId: string
  let workbookId: string

  beforeAll(async () => {
    await requireWebAppBuild()
    server = await startGatewayServer('web-inspector', { gateway: { webAppDir } })
    const [scan, workbook] = await ingestFiles(server.fixture, join(server.dir, 'uploads'), [
      { filename: 'scan.pdf', data: await scannedJapanesePdf(LINES) },
      { filename: 'sales.xlsx', data: await workbookWithMergedHeaders() },
    ])
    scanId = scan?.id ?? ''
    workbookId = workbook?.id ?? ''
    browser = await launchTestChromium(tests.chromiumPath)
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function openPage(viewport: { width: number; height: number }, locale = 'ja-JP') {
    const page = await (await browser.newContext({ locale, viewport })).newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    return { page, consoleErrors }
  }
  const widest = (page: Page) =>
    page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth))

  it('shows a scanned page with the boxes OCR read, its chunks marked OCR, and finds words in it', async () => {
    const { page, consoleErrors } = await openPage({ width: 1280, height: 800 })
    await page.goto(`${server.baseUrl}/#/documents`)
    // From the list, by keyboard: the file name opens the inspector.
    await page.focus(`li.document[data-filename="scan.pdf"] a[data-action=inspect]`)
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid=inspector] [data-testid=page-view] img')
    expect(page.url()).toBe(`${server.baseUrl}/#/documents/${scanId}`)
    await expect.poll(() => page.locator('[data-testid=page-region]').count()).toBeGreaterThan(0)
    const image = page.locator('[data-testid=page-view] img')
    await expect
      .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0)
    await expect
      .poll(() => page.locator('[data-testid=inspector-chunks] li').first().textContent())
      .toContain('OCR')
    await page.screenshot({ path: join(artifacts, 'inspector-scan.png'), fullPage: true })

    await page.focus('[data-testid=inspector-search]')
    await page.keyboard.type('満充電')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('[data-testid=inspector-count]').textContent())
      .toMatch(/「満充電」を含む/)
    for (const text of await page.locator('[data-testid=inspector-chunks] li .text').allTextContents())
      expect(text.replace(/\s/g, '')).toContain('満充電')
    expect(consoleErrors).toEqual([])
  })

  it('shows a workbook’s rows as tables, and the question that cited one, on a phone in English', async () => {
    const asked = await fetch(`${server.baseUrl}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: '大阪店の上期の売上は？',
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    })
    const { id } = (await asked.json()) as { id: string }
    await expect
      .poll(
        async () =>
          ((await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as { status: string }).status,
        {
          timeout: 60_000,
        },
      )
      .toBe('done')

    const { page, consoleErrors } = await openPage({ width: 390, height: 844 }, 'en-US')
    await page.goto(`${server.baseUrl}/#/documents/${workbookId}`)
    await page.waitForSelector('[data-testid=inspector-table]')
    const headers = await page.locator('[data-testid=inspector-table] th').allTextContents()
    expect(headers).toContain('店舗')
    await expect.poll(() => page.locator('[data-testid=inspector-pages]').count()).toBe(0)
    const cited = page.locator('[data-testid=cited-by]')
    await expect.poll(() => cited.count()).toBeGreaterThan(0)
    await cited.first().locator('summary').click()
    await expect.poll(() => cited.first().textContent()).toContain('大阪店の上期の売上は？')
    expect(await widest(page)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: join(artifacts, 'inspector-workbook-phone.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
  })

  it('says a page past the end plainly, and keeps the list usable', async () => {
    const { page } = await openPage({ width: 1280, height: 800 })
    const response = await fetch(`${server.baseUrl}/documents/${scanId}/pages/100000/image`)
    expect(response.status).toBe(404)
    await page.goto(`${server.baseUrl}/#/documents/${scanId}`)
    await page.waitForSelector('[data-testid=inspector-page]')
    await expect.poll(() => page.locator('[data-action=next-page]').isDisabled()).toBe(true)
  })
})

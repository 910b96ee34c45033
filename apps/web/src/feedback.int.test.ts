import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestTexts } from '@rag/ingest/testing'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// A person says an answer was wrong, and why, under the answer; a reviewer finds it in the
// Feedback view. Keyboard only, in Japanese, without a console error.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)

describe.skipIf(!hasChromium)('feedback in the web app', () => {
  let server: GatewayServer
  let browser: Browser

  beforeAll(async () => {
    await requireWebAppBuild()
    server = await startGatewayServer('web-feedback', { gateway: { webAppDir } })
    await ingestTexts(server.fixture, join(server.dir, 'uploads'), {
      'leave.txt': '有給休暇は年に二十日です。申請は一週間前までに行います。',
    })
    browser = await launchTestChromium(tests.chromiumPath)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('takes a 👎 with its reason under an answer, and shows it to the reviewer', async () => {
    const page = await (
      await browser.newContext({ locale: 'ja-JP', viewport: { width: 390, height: 844 } })
    ).newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    await page.goto(`${server.baseUrl}/#/settings`)
    await page.selectOption('form.settings select >> nth=0', 'keyword')
    await page.selectOption('form.settings select >> nth=2', 'extractive')
    await page.goto(`${server.baseUrl}/#/ask`)
    await page.fill('[data-testid=question]', '有給休暇は何日ですか')
    await page.click('form.ask button[type=submit]')
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 60_000 })

    // Words beside the emoji, readable without an emoji font.
    expect(await page.locator('[data-testid=feedback-up]').textContent()).toMatch(/正しい$/)
    expect(await page.locator('[data-testid=feedback-down]').textContent()).toMatch(/誤り$/)
    // Keyboard only: to 👎, the reason, the comment, send.
    await page.focus('[data-testid=feedback-down]')
    await page.keyboard.press('Enter')
    await page.focus('[data-testid=feedback-reason]')
    await page.selectOption('[data-testid=feedback-reason]', 'incomplete')
    await page.focus('[data-testid=feedback-comment]')
    await page.keyboard.type('申請期限も知りたい')
    await page.keyboard.press('Enter')
    await expect
      .poll(() => page.locator('[data-testid=feedback-sent]').textContent())
      .toContain('記録しました')

    await page.click('nav a[data-view=feedback]')
    await expect.poll(() => page.locator('[data-testid=feedback-list] li').count()).toBe(1)
    const item = (await page.locator('[data-testid=feedback-list] li').textContent()) ?? ''
    expect(item).toContain('有給休暇は何日ですか')
    expect(item).toContain('不十分')
    expect(item).toContain('申請期限も知りたい')
    expect(item).toContain('leave.txt')
    // One step to a case of the collection's evaluation set: the documents do not say it.
    // Nothing is chosen for the reviewer: saving waits for a choice.
    const makeCase = page.locator('[data-testid=make-case]')
    expect(await makeCase.locator('input[type=radio]:checked').count()).toBe(0)
    expect(await makeCase.locator('button[type=submit]').isDisabled()).toBe(true)
    // A source once, however many of its chunks came back.
    const offered = await makeCase
      .locator('input[type=radio]')
      .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
    expect(new Set(offered).size).toBe(offered.length)
    await makeCase.locator('input[type=radio][value=""]').check()
    await makeCase.locator('button[type=submit]').click()
    await expect
      .poll(() => page.locator('[data-testid=make-case]').textContent())
      .toContain('評価セットに保存しました')
    const cases = (await (await fetch(`${server.baseUrl}/collections/default/cases`)).json()) as {
      cases: { question: string; expectedSource: string | null }[]
    }
    expect(cases.cases).toEqual([
      expect.objectContaining({ question: '有給休暇は何日ですか', expectedSource: null }),
    ])
    await page.selectOption('[data-testid=feedback-filter-verdict]', 'up')
    await expect.poll(() => page.locator('[data-testid=feedback-list] li').count()).toBe(0)
    expect(consoleErrors).toEqual([])
  })
})

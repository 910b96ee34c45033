import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestFiles } from '@rag/ingest/testing'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// The loop a team runs, all in the web app: a 👎 in chat, the reviewer turns it into a case of
// the collection's evaluation set, runs the set (the case fails: the documents say 有給休暇, the
// question PTO), teaches the collection the synonym, runs it again — and the run shows the change.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const artifacts = join(webAppDir, '..', '..', '..', 'test-artifacts')
const encode = (text: string) => new TextEncoder().encode(text)

describe.skipIf(!hasChromium)('evaluation in the web app', () => {
  let server: GatewayServer
  let browser: Browser

  beforeAll(async () => {
    await requireWebAppBuild()
    server = await startGatewayServer('web-evaluation', { gateway: { webAppDir } })
    await ingestFiles(server.fixture, join(server.dir, 'uploads'), [
      {
        filename: 'leave.txt',
        data: encode('有給休暇の申請は、取得する一週間前までにポータルから行います。'),
        collection: 'hr',
      },
      {
        filename: 'canteen.txt',
        data: encode('社員食堂は平日の十一時半から十四時まで営業します。'),
        collection: 'hr',
      },
    ])
    // The set already holds a question it answers and one it must refuse.
    await server.fixture.db.pool.query(
      `INSERT INTO evaluation_cases (id, collection, question, expected_source, created_by) VALUES
         (gen_random_uuid(), 'hr', '社員食堂は何時から営業しますか', 'canteen.txt:L1', 'reviewer'),
         (gen_random_uuid(), 'hr', '社員寮の家賃はいくらですか', NULL, 'reviewer')`,
    )
    browser = await launchTestChromium(tests.chromiumPath)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('goes from a 👎 in chat to a case, a run, a fix and a re-run that shows the change', async () => {
    const page = await (
      await browser.newContext({ locale: 'ja-JP', viewport: { width: 1280, height: 800 } })
    ).newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    await page.goto(`${server.baseUrl}/`)
    await page.evaluate(() =>
      localStorage.setItem('rag-settings', JSON.stringify({ mode: 'keyword', answer: 'extractive' })),
    )
    await page.goto(`${server.baseUrl}/#/chat`)
    await page.fill('[data-testid=chat-message]', 'PTOはいつまでに申請しますか')
    await page.click('form.chat-form button[type=submit]')
    const turn = page.locator('[data-testid=turn]').first()
    await expect.poll(() => turn.getAttribute('data-status'), { timeout: 30_000 }).toBe('done')
    await expect.poll(() => turn.locator('.badge.failed').textContent()).toBe('文書に記載なし')
    // The passages it looked at stay listed under the refusal, marked as not enough, to open and judge.
    await expect
      .poll(() => turn.locator('.turn-sources > summary').textContent())
      .toMatch(/^確認した箇所・答えには不十分（[1-9]\d*件）$/)
    expect(
      await turn.locator('[data-testid=turn-sources][data-looked-at=not-enough] li').count(),
    ).toBeGreaterThan(0)
    await turn.locator('[data-testid=feedback-down]').click()
    await turn.locator('[data-testid=feedback-reason]').selectOption('should-have-answered')
    await turn.locator('[data-testid=feedback-send]').click()
    await expect.poll(() => turn.locator('[data-testid=feedback-sent]').count()).toBe(1)

    // The reviewer names the source that answers it: a case of the collection's set.
    await page.click('nav a[data-view=feedback]')
    // It was not among the passages that came back: found by searching the collection for it.
    const makeCase = page.locator('[data-testid=make-case]').first()
    await makeCase.locator('[data-testid=case-search]').fill('有給休暇の申請')
    await makeCase.locator('[data-testid=case-search]').press('Enter')
    const found = makeCase.locator('input[type=radio][value="leave.txt:L1"]')
    await expect.poll(() => found.count()).toBe(1)
    await found.check()
    await makeCase.locator('button[type=submit]').click()
    await expect.poll(() => makeCase.textContent()).toContain('評価セットに保存しました')
    // Beside the saved case, the way to the fix: the collection's synonyms.
    expect(await makeCase.locator('[data-testid=synonyms-link]').getAttribute('href')).toBe(
      '#/documents/synonyms/hr',
    )

    // The set run: the PTO case fails (refused), the two others are right.
    await page.click('nav a[data-view=evaluation]')
    await page.selectOption('[data-testid=evaluation-collection]', 'hr')
    await page.focus('[data-testid=evaluation-run]')
    await page.keyboard.press('Enter')
    const figures = page.locator('[data-testid=evaluation-figures]')
    await expect.poll(() => figures.textContent(), { timeout: 60_000 }).toContain('正答: 67%')
    await expect
      .poll(() => page.locator('[data-testid=evaluation-questions] tbody tr').allTextContents())
      .toEqual([expect.stringContaining('PTOはいつまでに申請しますか')])

    // The fix, from the link beside the run: the collection learns that PTO is 有給休暇.
    await page.click('[data-testid=evaluation-view] [data-testid=synonyms-link]')
    const rules = page.locator('[data-testid=synonyms-rules]')
    await expect.poll(() => rules.evaluate((area) => area === document.activeElement)).toBe(true)
    await expect.poll(() => page.locator('[data-testid=synonyms-editor] h3').textContent()).toContain('hr')
    await page.fill('[data-testid=synonyms-rules]', 'PTO, 有給休暇')
    await page.click('[data-action=save-synonyms]')
    await expect.poll(() => page.locator('[data-testid=synonyms-saved]').count()).toBe(1)

    // Run again: every case right; the earlier run stays beside it.
    await page.click('nav a[data-view=evaluation]')
    await page.selectOption('[data-testid=evaluation-collection]', 'hr')
    await page.click('[data-testid=evaluation-run]')
    await expect.poll(() => figures.textContent(), { timeout: 60_000 }).toContain('正答: 100%')
    await expect
      .poll(() => page.locator('[data-testid=evaluation-runs] li[data-status=done]').count())
      .toBe(2)
    await expect.poll(() => page.locator('[data-testid=evaluation-detail] canvas').count()).toBe(4)
    await expect.poll(() => page.locator('[data-testid=evaluation-questions] tbody tr').count()).toBe(0)
    await page.screenshot({ path: join(artifacts, 'evaluation-rerun.png'), fullPage: true })

    // On a phone: usable, nothing wider than the screen.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.uncheck('[data-testid=evaluation-wrong-only]')
    await expect.poll(() => page.locator('[data-testid=evaluation-questions] tbody tr').count()).toBe(3)
    expect(
      await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)),
    ).toBeLessThanOrEqual(390)
    // Each chart keeps a readable height on the phone (it was a strip of 20 px under its legend).
    await expect
      .poll(() =>
        page
          .locator('[data-testid=evaluation-detail] canvas')
          .evaluateAll((canvases) =>
            Math.min(...canvases.map((canvas) => canvas.getBoundingClientRect().height)),
          ),
      )
      .toBeGreaterThanOrEqual(200)
    await page.screenshot({ path: join(artifacts, 'evaluation-phone.png'), fullPage: true })
    expect(consoleErrors).toEqual([])
  })
})

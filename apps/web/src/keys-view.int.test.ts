import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// An admin hands out and revokes keys from the web app; a reader does not see the view at all.
const tests = testConfig.parse(processEnvironment()).test
// Outside CI a machine without Chromium skips these; with CI=true findTestAsset throws instead.
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const ADMIN = 'keys-view-admin-key-0123456789'

describe.skipIf(!hasChromium)('the Keys view', () => {
  let server: GatewayServer
  let browser: Browser

  beforeAll(async () => {
    await requireWebAppBuild()
    server = await startGatewayServer('keys-view', {
      gateway: {
        webAppDir,
        access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
      },
    })
    browser = await launchTestChromium(tests.chromiumPath)
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Opens the app and signs in with the key prompt, as a person does. */
  const signedIn = async (page: Page, key: string, hash = '') => {
    await page.goto(`${server.baseUrl}/${hash}`)
    await page.fill('form.key-prompt input', key)
    await page.click('form.key-prompt button[type=submit]')
  }

  const withKey = (key: string) =>
    fetch(`${server.baseUrl}/documents`, { headers: { authorization: `Bearer ${key}` } }).then(
      (r) => r.status,
    )

  it('lets an admin make a key (shown once) and revoke it; a reader sees no Keys view', async () => {
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage()
    page.on('dialog', (dialog) => void dialog.accept())
    // Before a key, the page is a sign-in page only: no upload zone, no refused list behind it.
    await page.goto(`${server.baseUrl}/#/documents`)
    await page.locator('form.key-prompt').waitFor()
    expect(await page.locator('main .dropzone, main ul.documents').count()).toBe(0)
    expect(await page.locator('main').textContent()).not.toMatch(/No documents yet|Unauthorized|401/)
    await signedIn(page, ADMIN, '#/keys')
    await expect.poll(() => page.locator('[data-principal]').textContent()).toContain('API_KEY (admin)')
    await page.locator('.key-form input').first().fill('handbook-bot')
    await page.locator('.key-form select').selectOption('reader')
    // A key for a collection no one has begun is refused, naming it: a typo makes no key to nothing.
    await page.locator('.key-form input').nth(1).fill('handbook')
    await page.locator('.key-form button[type="submit"]').click()
    await expect.poll(() => page.locator('.keys [role=alert]').textContent()).toContain('"handbook"')
    expect(await page.locator('[data-new-key]').count()).toBe(0)
    // The admin begins it in the Collections panel above, then the same key is made.
    const panel = page.locator('[data-testid=collections-panel]')
    await panel.locator('input[name=collection-name]').fill('handbook')
    await panel.locator('button[type=submit]').click()
    await expect
      .poll(() => panel.locator('[data-collection=handbook]').textContent())
      .toContain('0 documents')
    await page.locator('.key-form button[type="submit"]').click()
    // The key arrives with the gateway's answer: waited for, not read once.
    await expect.poll(() => page.locator('[data-new-key]').textContent()).toMatch(/^rag_/)
    const made = (await page.locator('[data-new-key]').textContent()) ?? ''
    expect(await withKey(made)).toBe(200)
    await expect.poll(() => page.locator('.key-list li').count()).toBe(1)
    await expect.poll(() => page.locator('.key-list').textContent()).not.toContain(made)

    // The reader's own page: no Keys view in its navigation.
    const reader = await (await browser.newContext({ locale: 'en-US' })).newPage()
    await signedIn(reader, made)
    await expect
      .poll(() => reader.locator('[data-principal]').textContent())
      .toContain('handbook-bot (reader)')
    await expect.poll(() => reader.locator('a[data-view="keys"]').count()).toBe(0)
    // Nor, in Documents, what it cannot do: no upload, no re-index or delete, no admin's model notice.
    const form = new FormData()
    form.append('collection', 'handbook')
    form.append('file', new Blob(['The cafeteria opens at nine.'], { type: 'text/plain' }), 'handbook.txt')
    const uploaded = await fetch(`${server.baseUrl}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}` },
      body: form,
    })
    expect(uploaded.status).toBe(202)
    await reader.goto(`${server.baseUrl}/#/documents`)
    await expect.poll(() => reader.locator('li.document').count()).toBeGreaterThan(0)
    for (const control of [
      '.dropzone',
      '[data-testid=upload-collection]',
      'li.document .actions',
      '[data-testid=vectors-wait]',
    ])
      expect(await reader.locator(control).count(), control).toBe(0)
    await page.goto(`${server.baseUrl}/#/documents`)
    await expect.poll(() => page.locator('li.document .actions').count()).toBeGreaterThan(0)
    expect(await page.locator('.dropzone').count()).toBe(1)
    await page.goto(`${server.baseUrl}/#/keys`)

    await page.locator('.key-list li button').click()
    await expect.poll(() => page.locator('.key-list li.revoked').count()).toBe(1)
    expect(await withKey(made)).toBe(401)
  })
})

import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { freePort } from '@rag/runtime'
import {
  APACHE_DAV_MODULE,
  startTestSyncWorker,
  startWebdavServer,
  startWebSiteServer,
  type WebdavServer,
  type WebSiteServer,
} from '@rag/sources/testing'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { launchTestChromium, requireWebAppBuild } from './test-browser.ts'

// An admin adds a WebDAV share (Apache mod_dav on loopback) in the Sources view, watches its first
// sync end, syncs again after a file is deleted there, replaces its password in place, on a desktop
// and on a phone; the password typed is never shown again; a reader sees the status but no form.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const { found: hasApache } = await findTestAsset(tests, APACHE_DAV_MODULE)
const ADMIN = 'sources-view-admin-key-0123456789'
const SECRET = 'sources-view-secret-0123456789'
const artifacts = join(webAppDir, '..', '..', '..', 'test-artifacts')

describe.skipIf(!hasChromium || !hasApache)('the Sources view', () => {
  let server: GatewayServer
  let webdav: WebdavServer
  let site: WebSiteServer
  let browser: Browser
  let worker: { close(): Promise<void> }

  beforeAll(async () => {
    await requireWebAppBuild()
    ;[server, webdav, site] = await Promise.all([
      startGatewayServer('sources-view', {
        gateway: {
          webAppDir,
          sourceCredentialKeys: { current: SECRET },
          access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
        },
      }),
      freePort().then(startWebdavServer),
      freePort().then((port) => startWebSiteServer(port)),
    ])
    const { fixture, dir } = server
    worker = startTestSyncWorker({ ...fixture, pool: fixture.db.pool }, { dir, secret: SECRET })
    await writeFile(join(webdav.root, 'guide.md'), '# 取扱説明書\n\n保証期間は2年間です。')
    await writeFile(join(webdav.root, 'faq.txt'), '返品は30日以内に受け付けます。')
    browser = await launchTestChromium(tests.chromiumPath)
  })
  afterAll(async () => {
    await browser?.close()
    await worker?.close()
    await webdav?.close()
    await site?.close()
    await server?.close()
  })

  const signedIn = async (page: Page, key: string) => {
    await page.goto(`${server.baseUrl}/#/sources`)
    await page.fill('form.key-prompt input', key)
    await page.click('form.key-prompt button[type=submit]')
  }
  const share = (page: Page) => page.locator('[data-source-name="share"]')
  const createCollection = (name: string) =>
    fetch(`${server.baseUrl}/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    })

  it('adds a WebDAV share, shows its sync to the end, and syncs again on demand', async () => {
    const page = await (await browser.newContext({ locale: 'ja-JP' })).newPage()
    page.on('dialog', (dialog) => void dialog.accept())
    await signedIn(page, ADMIN)
    // (Before the key, the page's first calls are refused: that 401 is the prompt's reason.)
    await page.locator('[data-testid=source-form]').waitFor()
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    const form = page.locator('[data-testid=source-form]')
    await form.locator('select[name=kind]').selectOption('webdav')
    await form.locator('input[name=name]').fill('share')
    await form.locator('input[name=collection]').fill('manuals')
    await form.locator('input[name=url]').fill(webdav.url)
    await form.locator('input[name=username]').fill(webdav.username)
    await form.locator('input[name=password]').fill(webdav.password)
    // No collection "manuals" yet: the form says so, naming it, and adds nothing.
    await form.locator('button[type=submit]').click()
    await expect
      .poll(() => page.locator('[data-testid=source-form-error]').textContent())
      .toContain('"manuals"')
    expect(await share(page).count()).toBe(0)
    // Once an admin has begun it, the same form, sent again, adds the share.
    expect((await createCollection('manuals')).status).toBe(201)
    await form.locator('button[type=submit]').click()

    await expect.poll(() => share(page).getAttribute('data-sync-status'), { timeout: 60_000 }).toBe('done')
    await expect
      .poll(() => share(page).locator('[data-testid=sync-counts]').textContent())
      .toBe('確認 2 · 新規 2 · 変更 0 · 変更なし 0 · 削除 0 · 失敗 0')
    await expect.poll(() => page.content()).not.toContain(webdav.password)
    await expect.poll(() => form.locator('input[name=password]').inputValue()).toBe('')
    await page.screenshot({ path: join(artifacts, 'sources.png'), fullPage: true })

    // Deleted there: the next sync, asked from the view, deletes it here.
    await rm(join(webdav.root, 'faq.txt'))
    await share(page).locator('button[data-action=sync]').click()
    await expect
      .poll(() => share(page).locator('[data-testid=sync-counts]').textContent(), { timeout: 60_000 })
      .toBe('確認 1 · 新規 0 · 変更 0 · 変更なし 1 · 削除 1 · 失敗 0')
    // The one refused request above (404, the missing collection) is the only error the page logged.
    expect(problems.filter((problem) => !problem.includes('status of 404'))).toEqual([])
    expect(problems.filter((problem) => problem.includes('status of 404'))).toHaveLength(1)
  })

  it('changes the share in place: a password that changed at the server replaced, a schedule set, documents kept', async () => {
    const page = await (await browser.newContext({ locale: 'ja-JP' })).newPage()
    await signedIn(page, ADMIN)
    await expect.poll(() => share(page).getAttribute('data-sync-status'), { timeout: 60_000 }).toBe('done')
    const open = async () => {
      const details = share(page).locator('details[data-action=change]')
      if ((await details.getAttribute('open')) === null) await details.locator('summary').click()
      return details.locator('[data-testid=source-change-form]')
    }
    // A wrong password: the sync it starts fails, says why, and deletes nothing.
    let form = await open()
    await form.locator('input[name=username]').fill(webdav.username)
    await form.locator('input[name=password]').fill('not-the-password')
    await form.locator('button[type=submit]').click()
    await expect.poll(() => share(page).getAttribute('data-sync-status'), { timeout: 60_000 }).toBe('failed')
    await expect.poll(() => share(page).locator('.sync .error').textContent()).toMatch(/401/)

    form = await open()
    await form.locator('input[name=username]').fill(webdav.username)
    await form.locator('input[name=password]').fill(webdav.password)
    await form.locator('input[name=every]').fill('30')
    await form.locator('button[type=submit]').click()
    await expect.poll(() => share(page).getAttribute('data-sync-status'), { timeout: 60_000 }).toBe('done')
    await expect.poll(() => share(page).textContent()).toContain('30 分ごと')
    await expect
      .poll(() => share(page).locator('[data-testid=sync-counts]').textContent())
      .toBe('確認 1 · 新規 0 · 変更 0 · 変更なし 1 · 削除 0 · 失敗 0')
    await expect.poll(() => form.locator('input[name=password]').inputValue()).toBe('')
    await expect.poll(() => page.content()).not.toContain(webdav.password)
  })

  it('adds a web site by its start page (the kind it offers first), and shows the pages synced', async () => {
    await writeFile(
      join(site.root, 'index.html'),
      '<main><h1>社内ポータル</h1><a href="leave.html">休暇</a></main>',
    )
    await writeFile(
      join(site.root, 'leave.html'),
      '<main><h1>休暇</h1><p>年次有給休暇は20日です。</p></main>',
    )
    const page = await (await browser.newContext({ locale: 'ja-JP' })).newPage()
    await signedIn(page, ADMIN)
    const form = page.locator('[data-testid=source-form]')
    await expect.poll(() => form.locator('select[name=kind]').inputValue()).toBe('web')
    await form.locator('input[name=name]').fill('portal')
    expect((await createCollection('handbook')).status).toBe(201)
    await form.locator('input[name=collection]').fill('handbook')
    await form.locator('input[name=url]').fill(`${site.url}/`)
    await form.locator('input[name=depth]').fill('1')
    await form.locator('button[type=submit]').click()
    const portal = page.locator('[data-source-name="portal"]')
    await expect.poll(() => portal.getAttribute('data-sync-status'), { timeout: 60_000 }).toBe('done')
    await expect
      .poll(() => portal.locator('[data-testid=sync-counts]').textContent())
      .toBe('確認 2 · 新規 2 · 変更 0 · 変更なし 0 · 削除 0 · 失敗 0')
    await expect.poll(() => portal.textContent()).toContain(`${site.url}/`)
  })

  it('reads on a phone in English, and a reader sees the status without the form', async () => {
    const admin = await fetch(`${server.baseUrl}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'handbook-reader', role: 'reader', collections: ['manuals'] }),
    })
    const { key } = (await admin.json()) as { key: string }
    const phone = await (
      await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 }, isMobile: true })
    ).newPage()
    await signedIn(phone, key)
    await expect.poll(() => share(phone).getAttribute('data-sync-status')).toBe('done')
    await expect.poll(() => phone.locator('[data-testid=source-form]').count()).toBe(0)
    await expect.poll(() => share(phone).locator('button[data-action=sync]').count()).toBe(0)
    await expect.poll(() => share(phone).locator('[data-action=change]').count()).toBe(0)
    await expect.poll(() => share(phone).textContent()).toContain('synced')
    const wider = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
    expect(wider).toBe(false)
    await phone.screenshot({ path: join(artifacts, 'sources-phone.png'), fullPage: true })
  })
})

import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import { ingestFiles } from '@rag/ingest/testing'
import { oidcSignIn } from '@rag/sign-in'
import { startTestProvider, type TestProvider } from '@rag/sign-in/testing'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'

// Single sign-on as a person goes through it: Debian's Chromium on the page the gateway serves,
// a real OpenID Connect provider (oidc-provider, in a process of its own) on loopback, its login
// form filled in, and back — with what can go wrong on the way.
const tests = testConfig.parse(processEnvironment()).test
const { found: hasChromium } = await findTestAsset(tests, tests.chromiumPath)
const ADMIN = 'sso-test-admin-key-0123456789'
const CLIENT_ID = 'rag-web'
const GRANTS = [
  { value: 'hr-team', role: 'reader' as const, collections: ['hr'] },
  { value: 'eng-team', role: 'editor' as const, collections: ['eng'] },
]
const encode = (text: string) => new TextEncoder().encode(text)

/** A gateway (with the built web app) whose single sign-on is the given provider. */
async function gatewayFor(label: string, provider: TestProvider, clockToleranceSeconds = 60) {
  const server = await startGatewayServer(label, {
    gateway: {
      webAppDir,
      access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
      singleSignOn: {
        oidc: oidcSignIn({
          issuer: provider.issuer,
          clientId: CLIENT_ID,
          providerName: 'Test IdP',
          scopes: 'openid profile groups',
          claim: 'groups',
          grants: GRANTS,
          sessionHours: 1,
          clockToleranceSeconds,
        }),
        sessionHours: 1,
      },
    },
  })
  await provider.registerClient(CLIENT_ID, [`${server.baseUrl}/auth/oidc/callback`])
  return server
}

const launch = () =>
  chromium.launch({
    executablePath: tests.chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })

/** From the app's sign-in prompt through the provider's login (and consent) form, as `login`. */
async function signIn(page: Page, baseUrl: string, login: string) {
  await page.goto(baseUrl)
  await page.locator('[data-sso="sign-in"]').click()
  await page.locator('input[name="login"]').fill(login)
  await page.locator('input[name="password"]').fill('any password')
  await page.locator('button[type="submit"]').click()
  // The provider asks once for consent to share the claims with this client.
  await page.waitForURL((url) => url.href.startsWith(baseUrl) || url.pathname.includes('/interaction/'))
  if (!page.url().startsWith(baseUrl)) {
    await page.locator('button[type="submit"]').click()
    await page.waitForURL((url) => url.href.startsWith(baseUrl))
  }
}

/** What the page's own requests (its session cookie) are allowed to list. */
const listedByPage = (page: Page) =>
  page.evaluate(async () => {
    const response = await fetch('/documents', { credentials: 'same-origin' })
    return { status: response.status, text: await response.text() }
  })

const hasBuild = () =>
  access(join(webAppDir, 'index.html')).then(
    () => true,
    () => false,
  )

describe.skipIf(!hasChromium)('single sign-on in the browser (OpenID Connect)', () => {
  let provider: TestProvider
  let server: GatewayServer
  let browser: Browser
  let scratch: string
  const contexts: BrowserContext[] = []
  const freshPage = async () => {
    const context = await browser.newContext({ locale: 'en-US' })
    contexts.push(context)
    return context.newPage()
  }

  beforeAll(async () => {
    if (!(await hasBuild()))
      throw new Error(`the web app is not built in ${webAppDir}: pnpm --filter @rag/web build`)
    scratch = await mkdtemp(join(tmpdir(), 'rag-sso-'))
    provider = await startTestProvider()
    server = await gatewayFor('single-sign-on', provider)
    await ingestFiles(server.fixture, scratch, [
      { filename: 'hr-leave-policy.txt', data: encode('Annual leave is twenty days.'), collection: 'hr' },
      { filename: 'eng-runbook.txt', data: encode('Restart the queue with care.'), collection: 'eng' },
    ])
    browser = await launch()
  })

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined)
    await browser?.close()
    await server?.close()
    await provider?.stop()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  it('signs a person in and shows only the collections their group grants; a new sign-in after their groups changed gets the new ones', async () => {
    await provider.setGroups('alice', ['hr-team'])
    const page = await freshPage()
    await signIn(page, server.baseUrl, 'alice')
    await expect.poll(() => page.locator('[data-principal]').textContent()).toContain('Person alice (reader)')
    await expect.poll(() => page.locator('body').textContent()).toContain('hr-leave-policy.txt')
    await expect.poll(() => page.locator('body').textContent()).not.toContain('eng-runbook.txt')
    const listed = await listedByPage(page)
    expect(listed.status).toBe(200)
    expect(listed.text).toContain('hr-leave-policy.txt')
    expect(listed.text).not.toContain('eng-runbook.txt')
    // A reader cannot delete, even through the session.
    const id = (JSON.parse(listed.text) as { documents: { id: string }[] }).documents[0]?.id
    const deleted = await page.evaluate(
      async (documentId) => (await fetch(`/documents/${documentId}`, { method: 'DELETE' })).status,
      id,
    )
    expect(deleted).toBe(403)

    // Between sessions the provider moved alice from HR to engineering.
    await provider.setGroups('alice', ['eng-team'])
    const later = await freshPage()
    await signIn(later, server.baseUrl, 'alice')
    await expect
      .poll(() => later.locator('[data-principal]').textContent())
      .toContain('Person alice (editor)')
    const relisted = await listedByPage(later)
    expect(relisted.text).toContain('eng-runbook.txt')
    expect(relisted.text).not.toContain('hr-leave-policy.txt')

    // Each sign-in is in the audit log, with the groups it was granted by.
    const audit = (await (
      await fetch(`${server.baseUrl}/audit?action=sign-in`, { headers: { authorization: `Bearer ${ADMIN}` } })
    ).json()) as { entries: { actor: string; detail: { groups: string[] } }[] }
    const alices = audit.entries.filter((entry) => entry.actor.endsWith('|alice'))
    expect(alices.map((entry) => entry.detail.groups)).toEqual([['eng-team'], ['hr-team']])
  })

  it('signs out: the session cookie is refused afterwards, even if it was copied', async () => {
    await provider.setGroups('bob', ['hr-team'])
    const page = await freshPage()
    await signIn(page, server.baseUrl, 'bob')
    await expect.poll(() => page.locator('[data-principal]').textContent()).toContain('Person bob')
    const cookie = (await page.context().cookies()).find((entry) => entry.name === 'rag_api_key')
    expect(cookie?.value).toMatch(/^rag_ses_/)
    await page.locator('[data-action="sign-out"]').click()
    await expect.poll(() => page.locator('[data-sso="sign-in"]').count()).toBe(1)
    const replayed = await fetch(`${server.baseUrl}/documents`, {
      headers: { cookie: `rag_api_key=${cookie?.value}` },
    })
    expect(replayed.status).toBe(401)
  })

  it('refuses a callback whose state is not the one this browser sent (a forged sign-in link), and says so', async () => {
    const page = await freshPage()
    // The browser starts a sign-in (the provider's login form is up) ...
    await page.goto(`${server.baseUrl}/auth/oidc/login`)
    await page.locator('input[name="login"]').waitFor()
    // ... and is then sent to the callback with someone else's code and state.
    await page.goto(`${server.baseUrl}/auth/oidc/callback?code=stolen-code&state=forged-state`)
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('state-mismatch')
    await expect.poll(() => page.locator('[data-principal]').count()).toBe(0)
    expect((await listedByPage(page)).status).toBe(401)
    // The sign-in it had started is used up: a second try with the right state gets nowhere either.
    await page.goto(`${server.baseUrl}/auth/oidc/callback?code=stolen-code&state=forged-state`)
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('no-request')
  })

  it('refuses a code that expired before it was exchanged, and says so', async () => {
    await provider.setGroups('dave', ['hr-team'])
    const page = await freshPage()
    await provider.codesExpire(true)
    try {
      await signIn(page, server.baseUrl, 'dave')
    } finally {
      await provider.codesExpire(false)
    }
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('code-rejected')
    expect((await listedByPage(page)).status).toBe(401)
  })

  it('does not let in a person whose groups grant nothing here', async () => {
    await provider.setGroups('erin', ['marketing'])
    const page = await freshPage()
    await signIn(page, server.baseUrl, 'erin')
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('no-grant')
    expect((await listedByPage(page)).status).toBe(401)
  })
})

describe.skipIf(!hasChromium)('single sign-on when the provider is away or its clock is off', () => {
  let browser: Browser
  const started: { close?: () => Promise<void>; stop?: () => Promise<void> }[] = []

  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
    for (const thing of started.reverse()) await (thing.close ?? thing.stop)?.call(thing)
  })

  it('says on the sign-in page that the provider is down, and API keys keep working', async () => {
    const provider = await startTestProvider()
    started.push(provider)
    const server = await gatewayFor('sso-provider-down', provider)
    started.push(server)
    await provider.stop()
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage()
    await page.goto(server.baseUrl)
    await expect
      .poll(() => page.locator('[data-sso="down"]').textContent())
      .toContain('Test IdP does not answer')
    // Following the sign-in anyway comes back with the reason, not an error page.
    await page.goto(`${server.baseUrl}/auth/oidc/login`)
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('provider-unreachable')
    const withKey = await fetch(`${server.baseUrl}/documents`, {
      headers: { authorization: `Bearer ${ADMIN}` },
    })
    expect(withKey.status).toBe(200)
  })

  it('refuses tokens from a provider whose clock is behind by more than the tolerance, and takes them within it', async () => {
    // The provider's clock is 3.5 minutes behind: its ID tokens (2 minutes' life) read as expired
    // 1.5 minutes ago here.
    const provider = await startTestProvider({ clockOffsetSeconds: -210 })
    started.push(provider)
    await provider.setGroups('frank', ['hr-team'])
    const strict = await gatewayFor('sso-clock-strict', provider, 60)
    started.push(strict)
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage()
    await signIn(page, strict.baseUrl, 'frank')
    await expect
      .poll(() => page.locator('[data-sign-in-error]').getAttribute('data-sign-in-error'))
      .toBe('clock-skew')

    const tolerant = await gatewayFor('sso-clock-tolerant', provider, 300)
    started.push(tolerant)
    const other = await (await browser.newContext({ locale: 'en-US' })).newPage()
    await signIn(other, tolerant.baseUrl, 'frank')
    await expect.poll(() => other.locator('[data-principal]').textContent()).toContain('Person frank')
  })
})

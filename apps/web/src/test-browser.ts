import { access, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'
import { webAppDir } from '../web-app-dir.ts'

/** Chromium as the web app's tests run it: headless, no sandbox (containers), nothing fetched of its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const launchTestChromium = (executablePath: string) =>
  chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS })

/** Fails (never skips) when the web app is not built: the tests would only see the "build it" page. */
export async function requireWebAppBuild(): Promise<void> {
  await access(join(webAppDir, 'index.html')).catch(() => {
    throw new Error(`the web app is not built in ${webAppDir}: pnpm --filter @rag/web build`)
  })
}

/** A browser profile of the tests' own: its context, its first page, and what closes it. */
export interface TestProfile {
  context: BrowserContext
  page: Page
  /** Closes the browser and removes the profile's folder. */
  close(): Promise<void>
}

/**
 * Chromium on a fresh profile folder that keeps cookies and storage between pages, as a person's
 * browser does (the key a page was given, the settings saved).
 */
export async function openTestProfile(
  executablePath: string,
  {
    locale,
    viewport = { width: 1100, height: 900 },
  }: { locale: string; viewport?: { width: number; height: number } },
): Promise<TestProfile> {
  const folder = await mkdtemp(join(tmpdir(), 'rag-chromium-'))
  const remove = () => rm(folder, { recursive: true, force: true })
  const context = await chromium
    .launchPersistentContext(folder, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      locale,
      viewport,
    })
    .catch(async (error: unknown) => {
      await remove()
      throw error
    })
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    async close() {
      await context.close()
      await remove()
    },
  }
}

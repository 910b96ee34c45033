import { access } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import { webAppDir } from '../web-app-dir.ts'

/** Chromium as the web app's tests run it: headless, no sandbox (containers), nothing fetched of its own. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
]

export const launchTestChromium = (executablePath: string) =>
  chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS })

/** Fails (never skips) when the web app is not built: the tests would only see the "build it" page. */
export async function requireWebAppBuild(): Promise<void> {
  await access(join(webAppDir, 'index.html')).catch(() => {
    throw new Error(`the web app is not built in ${webAppDir}: pnpm --filter @rag/web build`)
  })
}

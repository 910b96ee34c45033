import { processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { type Browser, chromium } from 'playwright-core'

const tests = testConfig.parse(processEnvironment()).test

/** Whether Debian's Chromium is there (with CI=true a missing one fails the run, never skips). */
export const hasChromium = (await findTestAsset(tests, tests.chromiumPath)).found

/** Headless Chromium for the browser tests: no sandbox or GPU, no reaching out on its own. */
export const launchTestChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: tests.chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })

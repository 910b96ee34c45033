import { mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generationDefaults, processEnvironment } from '@rag/config'
import { findTestAsset, testConfig } from '@rag/config/testing'
import { createGatewayClient } from '@rag/gateway-client'
import { type GatewayServer, startGatewayServer } from '@rag/http-api/testing'
import type { TextGenerator } from '@rag/llm'
import { loadTestGenerator } from '@rag/llm/testing'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { webAppDir } from '../web-app-dir.ts'
import { openTestProfile, requireWebAppBuild, type TestProfile } from './test-browser.ts'

// The web app as a person uses it: Debian's Chromium (headless, through playwright-core) on the
// page the gateway serves, uploading, waiting for `ready`, asking in Japanese while the answer
// streams from llama.cpp (stories260K: wiring and streaming, not answer quality).
const tests = testConfig.parse(processEnvironment()).test
const { chromiumPath } = tests
const [{ found: hasChromium }, { path: gguf, found: hasGguf }] = await Promise.all([
  findTestAsset(tests, chromiumPath),
  findTestAsset(tests, 'models/gguf/stories260K.gguf'),
])

const root = fileURLToPath(new URL('../../../', import.meta.url))
const sample = (name: string) => join(root, 'data/sample', name)
const artifacts = join(root, 'test-artifacts')

// Each test opens the page itself on a gateway of this describe's own, so any one runs alone.
describe.skipIf(!hasChromium)('the web app in Chromium: uploading', () => {
  let server: GatewayServer
  let browser: TestProfile
  let page: Page

  beforeAll(async () => {
    await requireWebAppBuild()
    server = await startGatewayServer('web-app-upload', { gateway: { webAppDir } })
    browser = await openTestProfile(chromiumPath, { locale: 'ja-JP' })
    page = browser.page
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  const listed = async () =>
    (
      (await (await fetch(`${server.baseUrl}/documents`)).json()) as { documents: { filename: string }[] }
    ).documents
      .map((document) => document.filename)
      .sort()

  it('uploads a PDF (file chooser) and a CSV (drag and drop) and shows them through to ready', async () => {
    await page.goto(`${server.baseUrl}/`)
    await expect.poll(() => page.locator('h1').textContent()).toBe('文書 Q&A')
    await page.setInputFiles('[data-testid=file-input]', sample('lumina-guide.pdf'))
    const csv = (await readFile(sample('faq.csv'))).toString('base64')
    const dataTransfer = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], 'faq.csv', { type: 'text/csv' }))
      return transfer
    }, csv)
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer })

    for (const name of ['lumina-guide.pdf', 'faq.csv']) {
      await page.waitForSelector(`li.upload[data-filename="${name}"] .stages[data-status="ready"]`, {
        timeout: 30_000,
      })
      await page.waitForSelector(`li.document[data-filename="${name}"][data-status="ready"]`)
    }
    const steps = await page.locator('li.upload[data-filename="faq.csv"] .stages li').allTextContents()
    // No embedding model in this test: searchable by keyword, its vectors waiting, and said so.
    expect(steps).toEqual(['アップロード中', '待機中', '解析中', '分割中', 'ベクトル待ち', '保存中', '完了'])
    await expect
      .poll(() => page.locator('li.document[data-filename="faq.csv"] .row.muted').textContent())
      .toMatch(/チャンクがベクトル待ち/)
    // And what they wait for (no embed worker runs beside this gateway), said once for the list,
    // not under each of the two documents whose vectors wait.
    await expect
      .poll(() => page.locator('[data-testid=vectors-wait]').textContent())
      .toMatch(/埋め込みワーカー待ちですが、報告がありません.*キーワード検索はできます/)
    await expect.poll(() => page.locator('[data-testid=vectors-wait]').count()).toBe(1)
  })

  it('says clearly why an unsupported file is not taken, and keeps the others', async () => {
    await page.goto(`${server.baseUrl}/`)
    const before = await listed()
    await page.setInputFiles('[data-testid=file-input]', [
      { name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from([0x00, 0x00, 0x00, 0x18, 0x66, 0x74]) },
      { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('メモ: 会議は木曜日です。') },
    ])
    const alert = page.locator('li.upload[data-filename="clip.mp4"] [role=alert]')
    await expect
      .poll(() => alert.textContent())
      .toMatch(/受け付けられませんでした: unsupported file type "\.mp4"/)
    await page.waitForSelector('li.document[data-filename="note.txt"][data-status="ready"]', {
      timeout: 30_000,
    })
    await expect.poll(() => page.locator('li.document[data-filename="clip.mp4"]').count()).toBe(0)
    expect(await listed()).toEqual([...new Set([...before, 'note.txt'])].sort())
  })

  it('uploads into a named collection, shows each document with its collection, and filters by it', async () => {
    await page.goto(`${server.baseUrl}/`)
    await page.fill('[data-testid=upload-collection]', 'manuals')
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'note.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('マニュアルの補足: 保証書は箱に入っています。'),
    })
    // The same name in two collections: two documents, told apart by their collection.
    const inManuals = page.locator('li.document[data-filename="note.txt"][data-collection="manuals"]')
    await expect.poll(() => inManuals.getAttribute('data-status'), { timeout: 30_000 }).toBe('ready')
    await expect.poll(() => inManuals.locator('.collection').textContent()).toBe('manuals')
    await page.selectOption('[data-testid=collection-filter]', 'manuals')
    await expect
      .poll(() =>
        page
          .locator('li.document')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-collection'))),
      )
      .toEqual(['manuals'])
    // New files go where the list looks: the upload box follows the filter (it said "default" before).
    await page.fill('[data-testid=upload-collection]', '')
    await page.selectOption('[data-testid=collection-filter]', '')
    await page.selectOption('[data-testid=collection-filter]', 'manuals')
    await expect.poll(() => page.inputValue('[data-testid=upload-collection]')).toBe('manuals')

    // The collection's own synonyms, edited where its documents are: saved, or refused naming the line.
    const rules = page.locator('[data-testid=synonyms-rules]')
    await expect.poll(() => rules.isVisible(), { timeout: 30_000 }).toBe(true)
    await rules.fill('保証書, ワランティカード\nPTO => 年次有給休暇')
    await page.click('[data-action=save-synonyms]')
    await expect
      .poll(() => page.locator('[data-testid=synonyms-saved]').textContent(), { timeout: 30_000 })
      .toMatch(/2/)
    await rules.fill('a, b\nひとつだけ')
    await page.click('[data-action=save-synonyms]')
    await expect
      .poll(() => page.locator('[data-testid=synonyms-editor]').textContent(), { timeout: 30_000 })
      .toMatch(/line 2/)
  })

  it('shows a corrupt file failed with its reason, and deletes it', async () => {
    await page.goto(`${server.baseUrl}/`)
    const before = await listed()
    await page.setInputFiles('[data-testid=file-input]', {
      name: 'broken.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4 this is not really a PDF'),
    })
    const broken = page.locator('li.document[data-filename="broken.pdf"]')
    await expect.poll(() => broken.getAttribute('data-status'), { timeout: 30_000 }).toBe('failed')
    await expect.poll(() => broken.locator('[role=alert]').textContent()).toMatch(/\S/)

    page.once('dialog', (dialog) => void dialog.accept())
    await broken.locator('button', { hasText: '削除' }).click()
    await expect.poll(() => broken.count()).toBe(0)
    expect(await listed()).toEqual(before.filter((name) => name !== 'broken.pdf'))
  })
})

// The samples are ingested through the HTTP API before any test; each test opens the page afresh
// with default settings, so the tests run in any order and any one alone.
describe.skipIf(!hasChromium || !hasGguf)('the web app in Chromium: asking', () => {
  let server: GatewayServer
  let generator: TextGenerator
  let browser: TestProfile
  let page: Page

  beforeAll(async () => {
    await requireWebAppBuild()
    generator = await loadTestGenerator(gguf)
    server = await startGatewayServer('web-app', {
      // An LLM is configured, so the page's default answer mode is generated (and streamed).
      gateway: { webAppDir, models: { reranker: null, llm: 'stories260K' } },
      workers: { generator, generation: { ...generationDefaults(), maxTokens: 64, temperature: 0 } },
    })
    const client = createGatewayClient({ baseUrl: server.baseUrl })
    for (const [name, collection] of [
      ['lumina-guide.pdf', undefined],
      ['faq.csv', undefined],
      ['setup.md', 'setup'],
    ] as const) {
      const { id } = await client.upload(sample(name), { collection })
      await vi.waitFor(async () => expect((await client.getDocument(id)).status).toBe('ready'), {
        timeout: 30_000,
        interval: 50,
      })
    }
    browser = await openTestProfile(chromiumPath, { locale: 'ja-JP' })
    page = browser.page
    await mkdir(artifacts, { recursive: true })
  })

  beforeEach(async () => {
    await page.setViewportSize({ width: 1100, height: 900 })
    await page.goto(`${server.baseUrl}/`)
    await page.evaluate(() => localStorage.clear())
    await page.reload()
    await expect.poll(() => page.locator('h1').textContent()).toBe('文書 Q&A')
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await generator?.close()
  })

  it('refuses an empty question with a message', async () => {
    await page.click('nav a[data-view=ask]')
    await page.click('form.ask button[type=submit]')
    await expect
      .poll(() => page.locator('[data-testid=ask-error]').textContent())
      .toBe('質問を入力してください。')
  })

  it('streams the answer to a Japanese question, then shows its sources with the terms marked', async () => {
    await page.click('nav a[data-view=ask]')
    // Every text the answer shows on its way, to see it grow token by token.
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { answerTexts: string[] }).answerTexts = seen
      new MutationObserver(() => {
        const answer = document.querySelector('[data-testid=answer]')
        // The provisional (extractive) answer stands in until the first token: not a prefix.
        if (answer?.getAttribute('data-provisional') === 'true') return
        const text = answer?.querySelector('.answer-text')?.textContent ?? ''
        if (text && text !== seen.at(-1)) {
          seen.push(text)
          // The passages the LLM reads stay listed while it writes.
          if (!document.querySelector('[data-testid=sources] > li'))
            (window as unknown as { sourcesGone: boolean }).sourcesGone = true
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
    })
    await page.fill('[data-testid=question]', '保証期間は何年ですか')
    const posted = page.waitForResponse((response) => response.url().endsWith('/ask'))
    await page.click('form.ask button[type=submit]')
    const { id } = (await (await posted).json()) as { id: string }
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 60_000 })

    const stored = (await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as {
      answer: string
      sources: { sourceId: string }[]
      usage: { completionTokens: number }
    }
    const shown = await page.locator('[data-testid=answer] .answer-text').textContent()
    expect(shown).toBe(stored.answer)
    const texts = await page.evaluate(() => (window as unknown as { answerTexts: string[] }).answerTexts)
    expect(texts.length, 'the answer appeared in pieces').toBeGreaterThan(2)
    for (const text of texts) expect(stored.answer.startsWith(text)).toBe(true)
    expect(
      await page.evaluate(() => (window as unknown as { sourcesGone?: boolean }).sourcesGone),
    ).toBeUndefined()

    // The sources render with the answer, but are waited for like everything that arrives.
    await expect
      .poll(() =>
        page
          .locator('[data-testid=sources] > li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-source-id'))),
      )
      .toEqual(stored.sources.map((source) => source.sourceId))
    expect(stored.sources[0]?.sourceId).toBe('lumina-guide.pdf:p5')
    await expect
      .poll(() => page.locator('[data-testid=sources] > li').first().locator('mark').allTextContents())
      .toContain('保証期間')
    // Why it was found, in sentences: the words it says and where the search ranked it.
    const why = page.locator('[data-testid=sources] > li').first().locator('[data-testid=source-why]')
    await why.locator('summary').click()
    await expect
      .poll(() => why.locator('[data-why=words]').textContent())
      .toMatch(/^質問の語を含む: .*保証期間/)
    await expect.poll(() => why.locator('[data-why=ranks]').textContent()).toMatch(/キーワード検索 1位/)
    await expect
      .poll(() => page.locator('[data-testid=decision-why] summary').textContent())
      .toBe('回答した理由')
    await page.screenshot({ path: join(artifacts, 'web-app-answer.png'), fullPage: true })
  })

  it('says so when the documents hold no answer', async () => {
    await page.click('nav a[data-view=ask]')
    await page.fill('[data-testid=question]', '火星の重力はどれくらいですか')
    // Pressed twice before the gateway took it (a slow machine): asked once.
    const asks: string[] = []
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/ask') asks.push(request.url())
    }
    page.on('request', onRequest)
    await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form.ask')
      form?.requestSubmit()
      form?.requestSubmit()
    })
    await page.waitForSelector('[data-testid=answer][data-status=done] .badge', { timeout: 30_000 })
    page.off('request', onRequest)
    expect(asks).toHaveLength(1)
    await expect.poll(() => page.locator('[data-testid=answer] .badge').textContent()).toBe('文書に記載なし')
    await expect.poll(() => page.locator('[data-testid=sources]').count()).toBe(0)
    // Why not, open at once: the probability against the threshold, and what weighed most.
    const why = page.locator('[data-testid=decision-why]')
    await expect.poll(() => why.getAttribute('open')).not.toBeNull()
    await expect
      .poll(() => why.locator('[data-why=words]').textContent())
      .toMatch(/確率を \d+% と判定（\d+% 以上で回答）/)
    await expect.poll(() => why.locator('[data-why=deciding]').textContent()).toMatch(/^主な判断材料: /)
    await page.screenshot({ path: join(artifacts, 'web-app-refusal-why.png'), fullPage: true })
  })

  it('chats: two turns in a thread, the follow-up rewritten from the first; threads renamed, kept to a collection, deleted', async () => {
    await page.evaluate(() =>
      localStorage.setItem('rag-settings', JSON.stringify({ mode: 'keyword', answer: 'extractive' })),
    )
    await page.reload()
    await page.click('nav a[data-view=chat]')
    const turn = (n: number) => page.locator('[data-testid=turn]').nth(n)
    const say = async (text: string, n: number) => {
      await page.fill('[data-testid=chat-message]', text)
      await page.click('form.chat-form button[type=submit]')
      await expect.poll(() => turn(n).getAttribute('data-status'), { timeout: 30_000 }).toBe('done')
    }
    await say('保証期間は何年ですか', 0)
    await expect.poll(() => turn(0).locator('.answer-text').textContent()).toContain('2年間')
    await say('それは延長できますか', 1)
    await expect
      .poll(() => turn(1).locator('[data-testid=rewritten-query]').textContent())
      .toContain('保証 期間 それは延長できますか')
    expect(
      await turn(1).locator('[data-testid=turn-sources] > li').first().getAttribute('data-source-id'),
    ).toBe('lumina-guide.pdf:p5')

    // The thread is listed under its first question; renamed, it keeps its turns.
    const thread = page.locator('[data-testid=thread-list] li').first()
    await expect.poll(() => thread.locator('.thread-title').textContent()).toBe('保証期間は何年ですか')
    page.once('dialog', (dialog) => void dialog.accept('保証'))
    await thread.locator('button[data-action=rename]').click()
    await expect.poll(() => thread.locator('.thread-title').textContent()).toBe('保証')
    await page.reload()
    await page.click('nav a[data-view=chat]')
    await page.locator('[data-testid=thread-list] li .thread-title', { hasText: '保証' }).click()
    await expect.poll(() => page.locator('[data-testid=turn]').count()).toBe(2)

    // A thread kept to the "setup" collection does not find the warranty page.
    await expect
      .poll(() => page.locator('[data-testid=collection-picker] option').allTextContents())
      .toEqual(['すべての文書', 'default', 'setup'])
    await page.selectOption('[data-testid=collection-picker]', 'setup')
    await page.click('[data-testid=new-thread]')
    await say('保証期間は何年ですか', 0)
    await expect.poll(() => turn(0).locator('.badge').textContent()).toBe('文書に記載なし')
    await expect.poll(() => page.locator('[data-testid=thread-title]').textContent()).toContain('(setup)')
    await page.screenshot({ path: join(artifacts, 'web-app-chat.png'), fullPage: true })

    const threads = page.locator('[data-testid=thread-list] li')
    // A fresh chat's first question sent twice before the first send is answered (a second press
    // on a slow machine): asked once, in one new thread.
    await page.reload()
    await page.click('nav a[data-view=chat]')
    await expect.poll(() => threads.count()).toBeGreaterThan(0)
    const listed = await threads.count()
    await page.fill('[data-testid=chat-message]', '保証期間は何年ですか')
    await page.evaluate(() => {
      const form = document.querySelector<HTMLFormElement>('form.chat-form')
      form?.requestSubmit()
      form?.requestSubmit()
    })
    await expect.poll(() => turn(0).getAttribute('data-status'), { timeout: 30_000 }).toBe('done')
    await expect.poll(() => threads.count()).toBe(listed + 1)
    await expect.poll(() => page.locator('[data-testid=turn]').count()).toBe(1)

    const before = await threads.count()
    page.once('dialog', (dialog) => void dialog.accept())
    await threads.first().locator('button[data-action=delete]').click()
    await expect.poll(() => threads.count()).toBe(before - 1)
  })

  it('opens a PDF citation at its page in the original', async () => {
    await page.click('nav a[data-view=search]')
    await page.fill('[data-testid=search-query]', '保証期間は何年ですか')
    await page.click('form.ask button[type=submit]')
    const first = page.locator('[data-testid=hits] > li').first()
    await expect.poll(() => first.getAttribute('data-source-id')).toBe('lumina-guide.pdf:p5')
    const [viewer] = await Promise.all([
      browser.context.waitForEvent('page'),
      first.locator('a[data-action=original]').click(),
    ])
    await viewer.waitForLoadState()
    expect(viewer.url()).toMatch(/\/documents\/[0-9a-f-]{36}\/file#page=5$/)
    const original = await fetch(viewer.url())
    expect(original.headers.get('content-type')).toBe('application/pdf')
    await viewer.close()
  })

  it('shows a cited CSV row in its document, among its neighbours, the passage marked', async () => {
    await page.click('nav a[data-view=search]')
    await page.fill('[data-testid=search-query]', 'アームの角度は調整できますか')
    await page.click('form.ask button[type=submit]')
    const first = page.locator('[data-testid=hits] > li').first()
    await expect.poll(() => first.getAttribute('data-source-id')).toBe('faq.csv:r2')
    // A CSV has no page to open at: the row is shown in the document instead.
    await expect.poll(() => first.locator('a[data-action=original]').count()).toBe(0)
    await first.locator('button[data-action=context]').click()
    const shown = first.locator('[data-testid=context] > li')
    await expect
      .poll(() => shown.evaluateAll((items) => items.map((item) => item.getAttribute('data-source-id'))))
      .toEqual(['faq.csv:r1', 'faq.csv:r2', 'faq.csv:r3', 'faq.csv:r4', 'faq.csv:r5'])
    const cited = first.locator('[data-testid=context] > li.cited')
    await expect.poll(() => cited.getAttribute('data-source-id')).toBe('faq.csv:r2')
    await expect.poll(() => cited.locator('mark').textContent()).toContain('アームの角度')
    await page.screenshot({ path: join(artifacts, 'web-app-context.png'), fullPage: true })
  })

  it('finds a CSV row in the search view', async () => {
    await page.click('nav a[data-view=search]')
    await page.fill('[data-testid=search-query]', 'アームの角度は調整できますか')
    await page.click('form.ask button[type=submit]')
    const first = page.locator('[data-testid=hits] > li').first()
    await expect.poll(() => first.getAttribute('data-source-id')).toBe('faq.csv:r2')
    await expect.poll(() => first.locator('.text').textContent()).toMatch(/角度/)
    // No embedding model here: said in plain words, with how to add one.
    const degraded = page.locator('[data-testid=degraded]')
    await expect
      .poll(() => degraded.textContent())
      .toMatch(/埋め込みモデル（EMBEDDING_MODEL）が使えないため、キーワードだけで検索しました/)
    expect(await degraded.textContent()).toMatch(/pnpm rag models pull/)
  })

  it('shows the collection of every hit and source, and searches or asks one collection', async () => {
    await page.click('nav a[data-view=search]')
    // Words of the setup guide (collection setup) and of the manual and FAQ (the default one).
    await page.fill('[data-testid=search-query]', 'ライトの電源')
    await page.click('form.ask button[type=submit]')
    const hits = page.locator('[data-testid=hits] > li')
    const collectionsOf = () =>
      hits.evaluateAll((items) => items.map((item) => item.getAttribute('data-collection')))
    await expect.poll(async () => new Set(await collectionsOf())).toEqual(new Set(['default', 'setup']))
    for (const hit of await hits.all())
      await expect
        .poll(() => hit.locator('.collection').textContent())
        .toContain(await hit.getAttribute('data-collection'))

    // One collection picked: only its documents are searched.
    await expect
      .poll(() => page.locator('[data-testid=search-collection] option').allTextContents())
      .toEqual(['すべての文書', 'default', 'setup'])
    await page.selectOption('[data-testid=search-collection]', 'setup')
    await page.click('form.ask button[type=submit]')
    await expect.poll(async () => [...new Set(await collectionsOf())]).toEqual(['setup'])

    await page.click('nav a[data-view=ask]')
    await page.selectOption('[data-testid=ask-collection]', 'setup')
    await page.fill('[data-testid=question]', 'ペアリングできないときは？')
    const posted = page.waitForResponse((response) => response.url().endsWith('/ask'))
    await page.click('form.ask button[type=submit]')
    const response = await posted
    expect(response.request().postDataJSON()).toMatchObject({ options: { collection: 'setup' } })
    const { id } = (await response.json()) as { id: string }
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 60_000 })
    const asked = (await (await fetch(`${server.baseUrl}/ask/${id}`)).json()) as {
      refused: boolean
      sources: { collection: string }[]
    }
    expect(asked.sources.length).toBeGreaterThan(0)
    expect(new Set(asked.sources.map((source) => source.collection))).toEqual(new Set(['setup']))
    if (!asked.refused)
      expect(
        await page
          .locator('[data-testid=sources] > li')
          .evaluateAll((items) => items.map((item) => item.getAttribute('data-collection'))),
      ).toEqual(asked.sources.map((source) => source.collection))
  })

  it('asks with the settings chosen in the settings panel', async () => {
    await page.click('nav a[data-view=settings]')
    await page.selectOption('form.settings select >> nth=0', 'keyword')
    await page.selectOption('form.settings select >> nth=2', 'extractive')
    await page.click('nav a[data-view=ask]')
    await page.fill('[data-testid=question]', '保証期間は何年ですか')
    const posted = page.waitForRequest((request) => request.url().endsWith('/ask'))
    await page.click('form.ask button[type=submit]')
    expect((await posted).postDataJSON().options).toMatchObject({ mode: 'keyword', answer: 'extractive' })
    // Extractive: the answer is the sentence of the best passage that holds the fact, set off in
    // that passage among the sources.
    await page.waitForSelector('[data-testid=answer][data-status=done]:has-text("2年間")', {
      timeout: 30_000,
    })
    const answer = (await page.locator('[data-testid=answer] .answer-text').textContent()) ?? ''
    const quote = page.locator('[data-testid=sources] li >> nth=0').locator('[data-testid=answer-quote]')
    await expect.poll(() => quote.count()).toBe(1)
    expect(answer).toContain((await quote.textContent()) ?? '-')
    await expect
      .poll(
        async () =>
          ((await page.locator('[data-testid=sources] li >> nth=0 >> p.text').textContent()) ?? '').length,
      )
      .toBeGreaterThan(answer.length)
  })

  it('re-indexes a document from the list and shows it ready again', async () => {
    await page.click('nav a[data-view=documents]')
    const reindexed = page.waitForResponse((response) => /\/documents\/[^/]+\/reindex$/.test(response.url()))
    await page.locator('li.document[data-filename="faq.csv"] button', { hasText: '再インデックス' }).click()
    expect((await reindexed).status()).toBe(202)
    await page.waitForSelector('li.document[data-filename="faq.csv"][data-status="ready"]', {
      timeout: 30_000,
    })
  })

  it('reads on a phone: nothing wider than the screen, in English when switched', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.click('header button')
    await page.click('nav a[data-view=documents]')
    await expect.poll(() => page.locator('h1').textContent()).toBe('Document Q&A')
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: join(artifacts, 'web-app-phone.png'), fullPage: true })
  })
})

describe.skipIf(!hasChromium)('the web app behind an API key', () => {
  let server: GatewayServer
  let browser: TestProfile

  beforeAll(async () => {
    server = await startGatewayServer('web-app-key', {
      gateway: {
        webAppDir,
        access: { apiKeys: ['s3cret'], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
      },
    })
    browser = await openTestProfile(chromiumPath, { locale: 'en-US' })
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('asks for the key, refuses a wrong one, then works (event stream included) with the right one', async () => {
    // What a browser fetches by itself is served without a key: no 404 or 401 logged at each load.
    const icon = await fetch(`${server.baseUrl}/favicon.ico`, { redirect: 'manual' })
    expect([icon.status, icon.headers.get('location')]).toEqual([301, '/favicon.svg'])
    expect((await fetch(`${server.baseUrl}/favicon.ico`)).headers.get('content-type')).toContain('image/svg')
    const { page } = browser
    await page.goto(`${server.baseUrl}/`)
    await page.waitForSelector('form.key-prompt')
    await page.fill('form.key-prompt input', 'wrong')
    await page.click('form.key-prompt button')
    await expect
      .poll(() => page.locator('form.key-prompt [role=alert]').textContent())
      .toBe('invalid API key')

    await page.fill('form.key-prompt input', 's3cret')
    await Promise.all([page.waitForEvent('load'), page.click('form.key-prompt button')])
    await page.setInputFiles('[data-testid=file-input]', sample('faq.csv'))
    await page.waitForSelector('li.document[data-filename="faq.csv"][data-status="ready"]', {
      timeout: 30_000,
    })
    await expect.poll(() => page.locator('form.key-prompt').count()).toBe(0)

    await page.click('nav a[data-view=ask]')
    await page.fill('[data-testid=question]', 'What is the return policy?')
    await page.click('form.ask button[type=submit]')
    await page.waitForSelector('[data-testid=answer][data-status=done]', { timeout: 30_000 })
    await expect
      .poll(() => page.locator('[data-testid=sources] > li').first().getAttribute('data-source-id'))
      .toBe('faq.csv:r5')
  })
})

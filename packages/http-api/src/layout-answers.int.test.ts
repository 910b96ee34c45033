import { isQuestionFinished } from '@rag/api-contract/enums'
import { ingestFiles } from '@rag/ingest/testing'
import { LETTER_SPACED_NOTICE, laidOutPdf } from '@rag/parsers/testing'
import { startQuestionWorkers } from '@rag/questions/testing'
import { expect, onTestFinished } from 'vitest'
import { gatewayTest } from './testing/gateway-fixtures.ts'
import { keywordOnlySearch } from './testing.ts'

// A PDF as company documents are laid out: a price table under its caption and chapter heading,
// running headers and page numbers, a page set vertically. Its rows answer questions on their
// own, cited to the row, with the place on the page a viewer highlights.
gatewayTest(
  'answers from a table row, cited to that row, with its place on the page',
  async ({ gateway }) => {
    const { app, fixture, uploadDir } = gateway
    const [document] = await ingestFiles(fixture, uploadDir, [
      { filename: 'price.pdf', data: await laidOutPdf() },
    ])
    const workers = startQuestionWorkers({
      ...fixture,
      pool: fixture.db.pool,
      retrieval: keywordOnlySearch.retrieval,
    })
    onTestFinished(() => Promise.all(workers.map((worker) => worker.close())).then(() => undefined))

    const posted = await app.request('/ask', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        question: 'エンタープライズのストレージは？',
        options: { mode: 'keyword', answer: 'extractive' },
      }),
    })
    const { id } = (await posted.json()) as { id: string }
    let answer: {
      status: string
      answer: string | null
      refused: boolean | null
      citations: { sourceId: string; span?: string; spanType?: string }[]
      sources: {
        sourceId: string
        heading: string | null
        text: string
        regions?: { page: number; y: number }[]
      }[]
    }
    for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
      answer = (await (await app.request(`/ask/${id}`)).json()) as typeof answer
      if (isQuestionFinished(answer.status as never)) break
      await new Promise((resolve) => setTimeout(resolve, wait))
    }
    expect(answer.refused).toBe(false)
    const [first] = answer.sources
    expect(first?.sourceId).toBe('price.pdf:p1:t1:r3')
    expect(first?.text).toBe(
      '料金プラン一覧 — プラン: エンタープライズ / 月額料金: 48,000円 / ストレージ: 2TB / サポート: 電話・専任担当',
    )
    expect(first?.heading).toBe('第2章 料金 › 料金プラン一覧')
    // The cell its column names is the short answer; the row and the column are its evidence.
    expect(answer.answer).toBe('2TB（プラン: エンタープライズ / ストレージ: 2TB — price.pdf:p1:t1:r3）')
    expect(answer.citations[0]).toMatchObject({ sourceId: 'price.pdf:p1:t1:r3', span: '2TB' })
    // The row's place: on page 1, below the table's header row.
    expect(first?.regions?.[0]?.page).toBe(1)
    expect(first?.regions?.[0]?.y).toBeGreaterThan(200)

    // The cited page, to show the row on: its size in points, and its picture.
    const page = (await (await app.request(`/documents/${document?.id}/pages/1`)).json()) as {
      pages: number
      width: number
    }
    expect(page).toMatchObject({ pages: 2, width: expect.closeTo(595.3, 0) })
    const image = await app.request(`/documents/${document?.id}/pages/1/image?width=800`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/png')
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000)
    // A page that is not there is told so, without rendering anything.
    expect((await app.request(`/documents/${document?.id}/pages/100000/image`)).status).toBe(404)

    // The running header and page numbers are not indexed; the vertical page reads in order.
    const sections = (await (await app.request(`/documents/${document?.id}/sections?limit=50`)).json()) as {
      sections: { sourceId: string; text: string }[]
    }
    const all = sections.sections.map((section) => section.text).join('\n')
    expect(all).not.toContain('株式会社ルミナ 料金のご案内')
    expect(all).not.toMatch(/- \d -/)
    expect(all).toContain('吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。')
    // A letter-spaced line is indexed as written, so its words are found.
    expect(all).toContain(LETTER_SPACED_NOTICE)
    const found = (await (
      await app.request(`/search?q=${encodeURIComponent('予約 電話')}&mode=keyword`)
    ).json()) as {
      hits: { sourceId: string; text: string }[]
    }
    expect(found.hits[0]?.sourceId).toBe('price.pdf:p1')
    expect(found.hits[0]?.text).toContain(LETTER_SPACED_NOTICE)
  },
)

import { readFile } from 'node:fs/promises'
import { type ApiDocumentChunksPage, isQuestionFinished } from '@rag/api-contract'
import { beforeAll, describe, expect, it } from 'vitest'
import { collectionsGatewayOfFile } from '../testing/collections-gateway.ts'

const pdf = await readFile(new URL('../../../../data/sample/lumina-guide.pdf', import.meta.url))
const world = collectionsGatewayOfFile(
  'inspector',
  [{ filename: 'lumina-guide.pdf', data: pdf, collection: 'manuals' }],
  [
    ['reader', 'reader', ['manuals']],
    ['other-reader', 'reader', ['manuals']],
  ],
)
const { call, keys, adminKey: ADMIN } = world
let guideId: string
beforeAll(() => {
  guideId = world.gateway.documents[0]?.id ?? ''
})
const chunks = async (key: string, query = '') => {
  const { status, body } = await call(key, 'GET', `/documents/${guideId}/chunks${query}`)
  expect(status).toBe(200)
  return body as unknown as ApiDocumentChunksPage
}

async function asked(key: string, question: string): Promise<string> {
  const id = (
    await call(key, 'POST', '/ask', { question, options: { mode: 'keyword', answer: 'extractive' } })
  ).body.id as string
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
    if (isQuestionFinished((await call(key, 'GET', `/ask/${id}`)).body.status as never)) return id
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

describe('the document inspector', () => {
  it('shows how a PDF was cut: chunks in reading order with heading paths and their boxes on the pages', async () => {
    const all = await chunks(ADMIN)
    expect(all.filename).toBe('lumina-guide.pdf')
    expect(all.total).toBe(all.chunks.length)
    const pages = all.chunks.map((chunk) => Number(chunk.sourceId.match(/:p(\d+)/)?.[1]))
    expect(pages).toEqual([...pages].sort((a, b) => a - b))
    expect(all.chunks.every((chunk) => chunk.regions.length > 0)).toBe(true)
    // One page: only its chunks, each with a box on it.
    const five = await chunks(ADMIN, '?page=5')
    expect(five.chunks.length).toBeGreaterThan(0)
    for (const chunk of five.chunks) {
      expect(chunk.sourceId).toBe('lumina-guide.pdf:p5')
      expect(chunk.regions.some((region) => region.page === 5)).toBe(true)
    }
  })

  it('searches within the document and pages through what matches', async () => {
    const found = await chunks(ADMIN, `?q=${encodeURIComponent('保証期間')}`)
    expect(found.total).toBeGreaterThan(0)
    for (const chunk of found.chunks) expect(`${chunk.heading ?? ''}${chunk.text}`).toContain('保証期間')
    // Literal: LIKE's wildcards are text here.
    expect((await chunks(ADMIN, `?q=${encodeURIComponent('%_%')}`)).total).toBe(0)
    const first = await chunks(ADMIN, '?limit=1')
    expect(first.chunks).toHaveLength(1)
    expect(first.next).toBe(`/documents/${guideId}/chunks?offset=1&limit=1`)
    const second = (await call(ADMIN, 'GET', first.next ?? '')).body as unknown as ApiDocumentChunksPage
    expect(second.offset).toBe(1)
    expect(second.chunks[0]?.text).not.toBe(first.chunks[0]?.text)
    const beyond = await chunks(ADMIN, '?offset=100000')
    expect(beyond).toMatchObject({ chunks: [], total: first.total, next: null })
  })

  it('lists the latest questions citing each chunk: everyone’s for an editor or admin, a reader’s own', async () => {
    await asked(keys.reader as string, '保証期間は何年ですか')
    const cited = (await chunks(ADMIN, '?page=5')).chunks.flatMap((chunk) => chunk.citedBy)
    expect(cited.map((question) => question.question)).toContain('保証期間は何年ですか')
    expect((await chunks(keys.reader as string, '?page=5')).chunks.flatMap((c) => c.citedBy)).toHaveLength(
      cited.length,
    )
    expect(
      (await chunks(keys['other-reader'] as string, '?page=5')).chunks.flatMap((c) => c.citedBy),
    ).toEqual([])
  })

  it('answers bad requests with 400 naming the parameter, and other collections’ documents with 404', async () => {
    for (const [query, field] of [
      ['?page=0', 'page'],
      [`?q=${'x'.repeat(201)}`, 'q'],
      ['?limit=1000', 'limit'],
    ] as const) {
      const { status, body } = await call(ADMIN, 'GET', `/documents/${guideId}/chunks${query}`)
      expect([query, status]).toEqual([query, 400])
      expect(JSON.stringify(body)).toContain(field)
    }
    expect((await call(ADMIN, 'POST', '/collections', { name: 'hr' })).status).toBe(201)
    const stranger = (
      await call(ADMIN, 'POST', '/keys', { name: 'stranger', role: 'reader', collections: ['hr'] })
    ).body.key as string
    expect((await call(stranger, 'GET', `/documents/${guideId}/chunks`)).status).toBe(404)
    expect((await call(ADMIN, 'GET', '/documents/00000000-0000-4000-8000-000000000000/chunks')).status).toBe(
      404,
    )
  })
})

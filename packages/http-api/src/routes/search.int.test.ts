import { describe, expect } from 'vitest'
import { type GatewayFixture, gatewayTest as it } from '../testing/gateway-fixtures.ts'

interface Found {
  mode: string
  degraded: string[]
  hits: { rank: number; sourceId: string; title: string; text: string; parentText: string; score: number }[]
}
interface Failure {
  error: { message: string }
}

const getFrom = async <T>({ app }: GatewayFixture, path: string) => {
  const response = await app.request(path)
  return { status: response.status, body: (await response.json()) as T }
}

describe('GET /search', () => {
  it('returns ranked passages with their source ids, parent text and scores', async ({ samples }) => {
    const { status, body } = await getFrom<Found>(
      samples,
      `/search?q=${encodeURIComponent('保証期間は何年ですか')}&mode=keyword&k=2`,
    )
    expect(status).toBe(200)
    expect(body.hits.map((h) => [h.rank, h.sourceId, h.title])).toEqual([
      [1, 'lumina-guide.pdf:p5', 'lumina-guide.pdf'],
      ...body.hits.slice(1).map((h, i) => [i + 2, h.sourceId, h.title]),
    ])
    expect(body.hits.length).toBeLessThanOrEqual(2)
    expect(body.hits[0]?.parentText).toContain('保証期間はお買い上げ日から2年間です')
  })

  it('answers hybrid without a model from keyword search, saying so', async ({ samples }) => {
    const { body } = await getFrom<Found>(samples, `/search?q=${encodeURIComponent('アームの角度')}`)
    expect(body.mode).toBe('hybrid')
    expect(body.degraded).toEqual(['vector'])
    expect(body.hits[0]?.sourceId).toBe('faq.csv:r2')
  })

  it('refuses bad queries with a 400 naming the parameter', async ({ samples }) => {
    const cases: [string, RegExp][] = [
      ['/search', /parameter q/],
      ['/search?q=%20%20', /q: must not be empty/],
      [`/search?q=${'a'.repeat(2001)}`, /q: must be at most 2000/],
      ['/search?q=x&mode=magic', /parameter mode/],
      ['/search?q=x&k=0', /parameter k/],
      ['/search?q=x&color=red', /color/],
    ]
    for (const [path, message] of cases) {
      const { status, body } = await getFrom<Failure>(samples, path)
      expect([path, status]).toEqual([path, 400])
      expect(body.error.message).toMatch(message)
    }
  })

  it('treats SQL-looking text as words', async ({ samples }) => {
    const { status, body } = await getFrom<Found>(
      samples,
      `/search?q=${encodeURIComponent("保証'; DROP TABLE chunks; --")}&mode=keyword`,
    )
    expect(status).toBe(200)
    expect(body.hits[0]?.sourceId).toBe('lumina-guide.pdf:p5')
  })
})

import { ingestSamples } from '@rag/ingest/testing'
import { describe, expect } from 'vitest'
import { type GatewayFixture, gatewayTest as it, sendJson } from '../testing/gateway-fixtures.ts'

const send = sendJson

const topSource = async (samples: GatewayFixture, query: string, collection?: string) => {
  const { body } = await send(
    samples,
    'GET',
    `/search?q=${encodeURIComponent(query)}&mode=keyword&k=3${collection ? `&collection=${collection}` : ''}`,
  )
  return (body.hits as { sourceId: string }[])[0]?.sourceId ?? null
}

describe("a collection's own synonyms", () => {
  it('finds a passage through the jargon a team adds, at once and without re-indexing; off again when removed', async ({
    samples,
  }) => {
    // The FAQ says スリープタイマー; the team calls it ねんねモード.
    const question = 'ねんねモードはありますか'
    expect(await topSource(samples, question)).not.toBe('faq.csv:r3')
    const saved = await send(samples, 'PUT', '/collections/default/synonyms', {
      rules: '# our words\nねんねモード, スリープタイマー\n',
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ collection: 'default', ruleCount: 1 })
    expect(await topSource(samples, question)).toBe('faq.csv:r3')
    expect((await send(samples, 'GET', '/collections/default/synonyms')).body.rules).toContain('ねんねモード')

    // A file that is not rules changes nothing, and says which line.
    const refused = await send(samples, 'PUT', '/collections/default/synonyms', {
      rules: 'a, b\n\u0000\u0001PK',
    })
    expect(refused.status).toBe(400)
    expect((refused.body.error as { message: string }).message).toMatch(/line 2/)
    expect(await topSource(samples, question)).toBe('faq.csv:r3')

    expect((await send(samples, 'DELETE', '/collections/default/synonyms')).body).toMatchObject({
      ruleCount: 0,
    })
    expect(await topSource(samples, question)).not.toBe('faq.csv:r3')
  })

  it('apply to searches of their own collection only, never to another’s or to a search of several', async ({
    gateway,
  }) => {
    for (const collection of ['support', 'sales'])
      await ingestSamples(gateway.fixture, gateway.uploadDir, ['faq.csv'], { collection })
    const question = 'ねんねモードはありますか'
    const saved = await send(gateway, 'PUT', '/collections/support/synonyms', {
      rules: 'ねんねモード, スリープタイマー\n',
    })
    expect(saved.status).toBe(200)
    expect(await topSource(gateway, question, 'support')).toBe('faq.csv:r3')
    // The sales team's searches are not changed by support's words, nor is a search of both.
    expect(await topSource(gateway, question, 'sales')).not.toBe('faq.csv:r3')
    expect(await topSource(gateway, question)).not.toBe('faq.csv:r3')
  })
})

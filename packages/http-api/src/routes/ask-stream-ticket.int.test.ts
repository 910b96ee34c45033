import { describe, expect, it } from 'vitest'
import { collectionsGatewayOfFile } from '../testing/collections-gateway.ts'
import { serverSentEvents } from '../testing/server-sent-events.ts'

// A browser's own EventSource sends no header: a stream ticket in its URL opens one question's
// events, as the asker, for a few minutes — and nothing else.
const world = collectionsGatewayOfFile(
  'stream-ticket',
  [{ filename: 'leave.txt', text: '有給休暇は年に二十日です。', collection: 'hr' }],
  [
    ['asker', 'reader', ['hr']],
    ['colleague', 'reader', ['hr']],
  ],
)
const { call, keys } = world

describe('stream tickets', () => {
  it("open the asker's question's events without a header, and nothing else", async () => {
    const asker = keys.asker as string
    const { id } = (
      await call(asker, 'POST', '/ask', {
        question: '有給休暇は何日ですか',
        options: { answer: 'extractive' },
      })
    ).body as { id: string }
    const made = await call(asker, 'POST', `/ask/${id}/stream-ticket`)
    expect(made.status).toBe(201)
    const { ticket, events } = made.body as { ticket: string; events: string }
    expect(events).toBe(`/ask/${id}/events?ticket=${ticket}`)

    const stream = await world.gateway.app.request(events)
    expect(stream.status).toBe(200)
    let done: Record<string, unknown> | undefined
    for await (const event of serverSentEvents(stream.body))
      if (event.event === 'done') {
        done = event.data
        break
      }
    expect(done).toMatchObject({ id, status: 'done' })
    expect(String(done?.answer)).toContain('二十日')

    // Not a key: the question itself, another route or another question's events stay closed.
    expect((await world.gateway.app.request(`/ask/${id}?ticket=${ticket}`)).status).toBe(401)
    expect((await world.gateway.app.request(`/documents?ticket=${ticket}`)).status).toBe(401)
    const other = (
      await call(asker, 'POST', '/ask', { question: '有給休暇', options: { answer: 'extractive' } })
    ).body.id as string
    expect((await world.gateway.app.request(`/ask/${other}/events?ticket=${ticket}`)).status).toBe(401)
    expect((await world.gateway.app.request(`/ask/${id}/events?ticket=${'x'.repeat(32)}`)).status).toBe(401)
    expect((await world.gateway.app.request(`/ask/${id}/events`)).status).toBe(401)
  })

  it("are the asker's to make: another key's question is not there", async () => {
    const { id } = (await call(keys.asker as string, 'POST', '/ask', { question: '有給休暇は何日ですか' }))
      .body as {
      id: string
    }
    expect((await call(keys.colleague as string, 'POST', `/ask/${id}/stream-ticket`)).status).toBe(404)
    expect((await world.gateway.app.request(`/ask/${id}/stream-ticket`, { method: 'POST' })).status).toBe(401)
  })
})

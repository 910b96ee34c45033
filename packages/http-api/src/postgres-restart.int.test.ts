import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type PrivatePostgres, startPrivatePostgres } from '@rag/db/testing'
import { type IngestionFixture, startIngestionFixture, waitForDocument } from '@rag/ingest/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestGateway, type TestGateway } from './testing.ts'

// Postgres restarted while uploads, listings and questions keep coming (a Postgres of this test's
// own, so the shared one is left alone): every request is answered, none with a 500; those that
// met the database away get 503 with Retry-After, and nothing accepted is lost.
let postgres: PrivatePostgres
let fixture: IngestionFixture
let gateway: TestGateway
let uploadDir: string

beforeAll(async () => {
  postgres = await startPrivatePostgres()
  fixture = await startIngestionFixture('postgres-restart', { databaseUrl: postgres.url, concurrency: 2 })
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-pg-restart-'))
  gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir, maxBytes: 1024 * 1024, maxFiles: 1 },
  )
})

afterAll(async () => {
  await gateway?.close()
  await fixture?.close()
  await postgres?.stop()
  if (uploadDir) await rm(uploadDir, { recursive: true, force: true })
})

interface Answered {
  what: string
  status: number
  retryAfter: string | null
  body: { id?: string; documents?: { id: string }[]; error?: { message: string } }
}

it('answers 503 with Retry-After, never 500, while Postgres restarts under load, and loses nothing accepted', async () => {
  const answered: Answered[] = []
  let down = false
  let whileDown = 0
  let stop = false
  let sent = 0
  const send = async (what: string, request: () => Response | Promise<Response>) => {
    const response = await request()
    const body = (await response.json().catch(() => ({}))) as Answered['body']
    answered.push({ what, status: response.status, retryAfter: response.headers.get('retry-after'), body })
    if (down) whileDown += 1
  }
  const client = async (n: number) => {
    while (!stop) {
      const i = sent++
      const form = new FormData()
      form.append(
        'files',
        new File(
          [`Note ${n}-${i}: the ferry to island ${i} leaves at ${i % 24} o'clock.`],
          `note-${n}-${i}.txt`,
        ),
      )
      await send('upload', () => gateway.app.request('/documents', { method: 'POST', body: form }))
      await send('list', () => gateway.app.request('/documents?limit=5'))
      await send('ask', () =>
        gateway.app.request('/ask', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: `When does the ferry to island ${i} leave?` }),
        }),
      )
    }
  }
  const clients = Array.from({ length: 6 }, (_, n) => client(n))
  const accepted = () => answered.filter((each) => each.status < 300).length
  // Waits for `check`; a 500 on the way ends the wait (and the test) at once, with what it said.
  const until = async (check: () => boolean) => {
    while (!check()) {
      const failed = answered.find((each) => each.status === 500)
      if (failed) throw new Error(`${failed.what} answered 500: ${JSON.stringify(failed.body)}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  try {
    await until(() => accepted() >= 20)
    // Down until a dozen requests have met it away; then up again, and load until it serves again.
    await postgres.restart(async () => {
      down = true
      await until(() => whileDown >= 12)
      down = false
    })
    const before = accepted()
    await until(() => accepted() >= before + 20)
  } finally {
    stop = true
    await Promise.all(clients)
  }

  const statuses = answered.map((each) => each.status)
  const byStatus = new Map<number, number>()
  for (const status of statuses) byStatus.set(status, (byStatus.get(status) ?? 0) + 1)
  const counts = [...byStatus].map(([status, count]) => `${status}: ${count}`)
  console.log(`Postgres restarted under load: ${answered.length} requests answered (${counts.join(', ')})`)
  expect(
    statuses.filter((status) => status >= 500 && status !== 503),
    'no 500 (nor other 5xx)',
  ).toEqual([])
  const away = answered.filter((each) => each.status === 503)
  expect(away.length).toBeGreaterThan(0)
  for (const each of away) {
    expect(each.retryAfter).toMatch(/^\d+$/)
    expect(each.body.error?.message).toMatch(
      /unavailable right now; the request was not completed: send it again/,
    )
  }
  expect(statuses.filter((status) => status >= 400 && status !== 503)).toEqual([])

  // Every upload accepted ends ready, every question accepted is there to read.
  const documents = answered.flatMap((each) =>
    each.what === 'upload' && each.status === 202 ? (each.body.documents ?? []) : [],
  )
  expect(documents.length).toBeGreaterThan(0)
  for (const { id } of documents)
    expect((await waitForDocument(fixture.db.pool, id, 180_000)).status).toBe('ready')
  for (const each of answered.filter((entry) => entry.what === 'ask' && entry.status === 202))
    expect((await gateway.app.request(`/ask/${each.body.id}`)).status).toBe(200)
}, 600_000)

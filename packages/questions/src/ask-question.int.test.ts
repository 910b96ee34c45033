import { randomUUID } from 'node:crypto'
import { retrievalDefaults } from '@rag/config'
import { createTestDatabase, type TestDatabase } from '@rag/db/testing'
import { createLogger } from '@rag/log'
import { createProducer, type Producer } from '@rag/queue'
import { dropPrefix, testRedisUrl, uniquePrefix } from '@rag/queue/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askQuestion } from './ask-question.ts'
import { createConversation } from './conversations/conversation-store.ts'
import { readQuestion, updateQuestion } from './question-store.ts'

let db: TestDatabase
let producer: Producer
const prefix = uniquePrefix('ask-question')
const retrieval = { ...retrievalDefaults(), questionTtlSeconds: 600 }
let deps: Parameters<typeof askQuestion>[0]

beforeAll(async () => {
  db = await createTestDatabase('ask-question')
  producer = await createProducer({ url: testRedisUrl(), prefix })
  deps = {
    pool: db.pool,
    producer,
    logger: createLogger({ name: 'test', level: 'silent' }),
    retrieval,
    models: { reranker: null, llm: null },
  }
})
afterAll(async () => {
  await producer.close()
  await dropPrefix(testRedisUrl(), prefix)
  await db.drop()
})

describe('askQuestion, the one way a question comes in', () => {
  it("resolves the options against the defaults, limits them to the asker's collections and keeps it as configured", async () => {
    const { id, enqueued } = await askQuestion(
      deps,
      { question: '保証期間は？', options: { mode: 'keyword' } },
      { owner: 'key-1', collections: ['hr'] },
    )
    expect(enqueued).toBe(true)
    const stored = await readQuestion(db.pool, id)
    expect(stored?.options).toMatchObject({
      mode: 'keyword',
      answer: 'extractive',
      rerank: false,
      within: ['hr'],
    })
    const kept =
      (new Date(stored?.expiresAt ?? 0).getTime() - new Date(stored?.createdAt ?? 0).getTime()) / 1000
    expect(kept).toBeGreaterThan(590)
    expect(kept).toBeLessThan(610)
  })

  it('marks batch work, and an admin (no collection limit) searches everything', async () => {
    const { id } = await askQuestion(deps, { question: 'q', batch: true }, { collections: null })
    const stored = await readQuestion(db.pool, id)
    expect(stored?.options.batch).toBe(true)
    expect(stored?.options.within).toBeUndefined()
  })

  it("asks a conversation's message with the thread's answered turns", async () => {
    const conversationId = randomUUID()
    await createConversation(db.pool, { id: conversationId, owner: 'key-1', title: '', collection: null })
    const first = await askQuestion(
      deps,
      { question: '有休は何日？', conversationId },
      { owner: 'key-1', collections: null },
    )
    await updateQuestion(db.pool, first.id, 'done', { answer: '年10日です。' })
    const second = await askQuestion(
      deps,
      { question: '半日でも取れる？', conversationId },
      { owner: 'key-1', collections: null },
    )
    const stored = await readQuestion(db.pool, second.id)
    expect(stored?.conversationId).toBe(conversationId)
    expect(stored?.history.map((turn) => turn.answer)).toEqual(['年10日です。'])
  })
})

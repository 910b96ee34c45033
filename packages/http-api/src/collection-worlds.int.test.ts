import { isQuestionFinished } from '@rag/api-contract/enums'
import { ingestFiles } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CollectionsGateway, startCollectionsGateway } from './testing/collections-gateway.ts'

// Collections are worlds of their own: what a reader of `hr` gets — scores, answers, refusals and
// their probabilities — never depends on, nor tells of, what another collection holds.
const ADMIN = 'collection-worlds-admin-key-0123'
const encode = (text: string) => new TextEncoder().encode(text)

let gateway: CollectionsGateway
let reader: string

const call = async (key: string, path: string, json?: unknown) => {
  const response = await gateway.app.request(path, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  gateway = await startCollectionsGateway(
    'collection-worlds',
    [
      {
        filename: 'leave.txt',
        text:
          'Annual leave is twenty days a year. The warranty on company laptops is handled by the IT desk.\n\n' +
          '有給休暇は年に二十日です。申請は一週間前までに行います。',
        collection: 'hr',
      },
      {
        filename: 'benefits.txt',
        text: 'The commuting allowance is paid monthly with the salary.',
        collection: 'hr',
      },
    ],
    ADMIN,
  )
  const made = await call(ADMIN, '/keys', { name: 'hr-reader', role: 'reader', collections: ['hr'] })
  reader = made.body.key as string
})

afterAll(() => gateway?.close())

/** A question asked and waited for; what a reader sees of it, without what differs per question. */
async function asked(key: string, question: string) {
  const posted = await call(key, '/ask', { question, options: { mode: 'keyword', answer: 'extractive' } })
  const id = posted.body.id as string
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
    const { body } = await call(key, `/ask/${id}`)
    if (isQuestionFinished(body.status as never)) {
      const { id: _id, timings: _t, createdAt: _c, expiresAt: _e, ...seen } = body
      return seen
    }
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

const searched = async (key: string, q: string) =>
  (await call(key, `/search?mode=keyword&k=5&q=${encodeURIComponent(q)}`)).body.hits

const QUESTIONS = [
  'How many days of annual leave are there?',
  'Who handles the laptop warranty?',
  '有給休暇は何日ですか',
  // Nothing of hr answers it: refused, with its probability.
  'What is the warranty period of the espresso machine?',
]

describe('a reader of one collection', () => {
  it('gets byte-identical scores, answers and refusals after another collection gains documents with the question’s words', async () => {
    const before = []
    for (const question of QUESTIONS)
      before.push({ ask: await asked(reader, question), search: await searched(reader, question) })
    expect(before[3]?.ask.refused).toBe(true)
    await ingestFiles(
      gateway.fixture,
      gateway.uploadDir,
      Array.from({ length: 8 }, (_, i) => ({
        filename: `eng-note-${i}.txt`,
        data: encode(
          `Note ${i}: the espresso machine warranty period is two years; annual leave days and the laptop warranty are listed in the handbook. 有給休暇の日数。`,
        ),
        collection: 'eng',
      })),
    )
    const after = []
    for (const question of QUESTIONS)
      after.push({ ask: await asked(reader, question), search: await searched(reader, question) })
    expect(JSON.stringify(after)).toBe(JSON.stringify(before))
  })

  it('cannot tell whether a word exists in a collection it was not given, in one request or any', async () => {
    await ingestFiles(gateway.fixture, gateway.uploadDir, [
      {
        filename: 'secret.txt',
        data: encode('Project 白樺七号 ships the Alice board; call 555-0199.'),
        collection: 'eng',
      },
    ])
    // A word only eng holds and a word nobody holds: the same answer, refusal and probability.
    for (const [held, nowhere] of [
      ['Does annual leave cover 白樺七号?', 'Does annual leave cover 黒松九号?'],
      ['Is Alice on annual leave?', 'Is Zorbulon on annual leave?'],
      [
        'Who answers 555-0199 about the commuting allowance?',
        'Who answers 555-0142 about the commuting allowance?',
      ],
    ] as const) {
      const seen = await asked(reader, held)
      const unseen = await asked(reader, nowhere)
      expect({ ...seen, question: '' }).toEqual({ ...unseen, question: '' })
      // And the raw signals are not shown to a reader at all.
      expect((seen.answerability as Record<string, unknown> | null)?.signals).toBeUndefined()
    }
    // An admin reads them.
    const admin = await asked(ADMIN, 'Is Alice on annual leave?')
    expect((admin.answerability as { signals?: Record<string, number> }).signals).toHaveProperty('unseen')
  })
})

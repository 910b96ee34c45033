import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type IngestionFixture, ingestTexts, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { search } from './search.ts'

// The kinds of misses the issue measured on a held-out Japanese QA set, each in a small library
// where BM25 over ICU words (the analyser before) ranked the wrong passage first: every case below
// failed on it.
const FILLER = [
  '当店の営業時間は午前10時から午後7時までです。',
  '商品の配送には通常3日ほどかかります。',
  '本製品は家庭用の照明器具です。',
  'アプリの最新版は毎月公開されます。',
  'The lamp has three brightness levels and a timer.',
  'Shipping usually takes three days within the country.',
  'The store opens at ten and closes at seven.',
]
const FILES: Record<string, string> = {
  ...Object.fromEntries(FILLER.map((text, i) => [`filler-${i}.txt`, text])),
  'pro-plan.txt': 'プロプランの料金は月額2000円で、10ユーザーまで使えます。',
  'login.txt':
    'ログインできないときはパスワードを再設定してください。内容は窓口でもご確認ください。ご了承ください。',
  'heian.txt': '平安京は794年に定めた都で、のちに人々は京都と呼ぶようになった。',
  'kyoto.txt': '京都の町は碁盤の目のように区画され、古都と呼ばれている。京都は呼ばれ方が多い。',
  'manning.txt': 'Peyton Manning finished the season with a passer rating of 67.9.',
  'ratings.txt':
    'Passer ratings are computed from completions and yards. A passer with a rating over 100 is rated excellent; rating passers is an art.',
  'final-2016.txt': 'The stadium hosted the final in 2016 after a long bid.',
  'final-bid.txt':
    'The final bid for the stadium to host the final and to host the final again was long; the stadium and the final.',
}

let fixture: IngestionFixture
let uploadDir: string

beforeAll(async () => {
  fixture = await startIngestionFixture('keyword-relevance')
  uploadDir = await mkdtemp(join(tmpdir(), 'rag-relevance-'))
  await ingestTexts(fixture, uploadDir, FILES)
})

afterAll(async () => {
  await fixture?.close()
  await rm(uploadDir, { recursive: true, force: true })
})

const firstSource = async (query: string) =>
  (
    await search(
      { pool: fixture.db.pool, embedder: null },
      { query, mode: 'keyword', limit: 3, searchK: 10, alpha: 0.5, rrfK: 60 },
    )
  ).hits[0]?.sourceId

it.each([
  // The request frame (教えてください) is the asking, not the topic: no match on ください.
  ['プロプランの内容と価格を教えてください', 'pro-plan.txt:L1'],
  // An inflected question word meets the text's other form through their base form (呼ばれ / 呼ぶ).
  ['平安京は何と呼ばれていますか', 'heian.txt:L1'],
  // A possessive is the name it belongs to (Manning's / Manning).
  ["What was Manning's passer rating?", 'manning.txt:L1'],
  // A question asking when prefers the passage where its words stand next to a date.
  ['When did the stadium host the final?', 'final-2016.txt:L1'],
])('%s → %s', async (query, source) => {
  expect(await firstSource(query)).toBe(source)
})

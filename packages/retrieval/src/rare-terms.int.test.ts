import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import type { Embedder } from '@rag/embeddings'
import { findSharedTokenizer, loadTinyEmbedder } from '@rag/embeddings/testing'
import { type IngestionFixture, ingestTexts, startIngestionFixture } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SearchMode, search } from './search.ts'

const FILES: Record<string, string> = {
  'datasets.csv': [
    'データセット,タスク,訓練データ,検証データ,テストデータ',
    'MARC-ja,感情分析,187528件,5654件,5639件',
    'JSTS,文類似度,12451件,1457件,1589件',
    'JNLI,自然言語推論,20073件,2434件,2508件',
    'JSQuAD,質問応答,62859件,4442件,4420件',
    'JCommonsenseQA,常識推論,8939件,1119件,1118件',
  ].join('\n'),
  'data-policy.md': [
    '# データの扱い',
    '',
    '## 訓練データ',
    '',
    '訓練データは社内のデータ基盤に保存します。訓練データの件数は毎月集計し、データ管理者が確認します。',
    '',
    '## 検証データ',
    '',
    '検証データは訓練データと分けて保存します。データの件数が1000件を超えたら分割します。',
  ].join('\n'),
  'models.md': [
    '# 機種一覧',
    '',
    '## 小型モデル',
    '',
    'XR-200は重さ1.2kgで、バッテリーは8時間持ちます。',
    '',
    '## 大型モデル',
    '',
    'XR-300は重さ1.5kgで、バッテリーは10時間持ちます。',
    '',
    '## 重さとバッテリー',
    '',
    '重さはすべての機種で出荷時に量ります。バッテリーの持ち時間は使い方で変わり、重さの表示は箱にあります。',
  ].join('\n'),
}

const tests = testConfig.parse(processEnvironment()).test
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(tests.sharedDir)

let fixture: IngestionFixture
let embedder: Embedder
let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rag-rare-'))
  embedder = await loadTinyEmbedder({ modelsDir: join(scratch, 'models'), tokenizerDir })
  fixture = await startIngestionFixture('rare-terms', { embedder })
  await ingestTexts(fixture, scratch, FILES)
})

afterAll(async () => {
  await fixture?.close()
  await rm(scratch, { recursive: true, force: true })
})

const first = async (query: string, mode: SearchMode) => {
  const { hits } = await search(
    { pool: fixture.db.pool, embedder },
    { query, mode, limit: 3, searchK: 10, alpha: 0.5, rrfK: 60 },
  )
  return hits[0]?.text ?? ''
}

// A question naming a dataset or a model number among rows and sections that share its common
// words (データ, 重さ): the passage holding the name comes first, whatever the embedder thinks
// (a random-weight one here, as unhelpful with names as real ones often are).
describe.skipIf(!hasTokenizer)('a rare name in the question', () => {
  it.each([
    ['JSQuADの訓練データは何件ですか', 'JSQuAD'],
    ['JSQuADのテストデータは何件？', 'JSQuAD'],
    ['JNLIの検証データの件数は', 'JNLI'],
    ['XR-300の重さは？', 'XR-300'],
    ['XR-200のバッテリーは何時間持ちますか', 'XR-200'],
  ])('%s → the passage naming %s, in both modes', async (query, name) => {
    for (const mode of ['keyword', 'hybrid'] as const)
      expect(`${mode}: ${await first(query, mode)}`).toContain(name)
  })
})

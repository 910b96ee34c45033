import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { processEnvironment } from '@rag/config'
import { testConfig } from '@rag/config/testing'
import type { Embedder } from '@rag/embeddings'
import { findSharedTokenizer, loadTinyEmbedder } from '@rag/embeddings/testing'
import type { DocumentRecord } from '@rag/ingest'
import { type IngestionFixture, ingestFiles, startIngestionFixture } from '@rag/ingest/testing'
import { startQuestionWorkers } from '@rag/questions/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../testing.ts'

// The leak test on the embedder's side: a vector search returns the nearest passages whatever the
// question, so without the collection filter inside the vector SQL a key of collection alpha would
// be handed collection bravo's passages by every question. A random-weight embedder with a real
// tokenizer: what is asserted is what may be returned, not how well it is ranked.
const tests = testConfig.parse(processEnvironment()).test
const { dir: tokenizerDir, found: hasTokenizer } = await findSharedTokenizer(tests.sharedDir)
const ADMIN = 'vector-leak-admin-key-0123456789'
const SECRETS = ['QUASARMANGO', '秘密の合言葉は白樺七号']

describe.skipIf(!hasTokenizer)('a key of one collection, searching and asking by meaning', () => {
  let fixture: IngestionFixture
  let gateway: TestGateway
  let workers: { close(): Promise<void> }[] = []
  let embedder: Embedder
  let scratch: string
  let bravo: DocumentRecord[]
  let alphaKey: string

  const call = async (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init
    const response = await gateway.app.request(path, {
      ...rest,
      headers: {
        authorization: `Bearer ${alphaKey}`,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    })
    return { status: response.status, text: await response.text() }
  }
  /**
   * No byte of collection bravo: not a secret, not one of its ids or file names — beyond what the
   * caller sent itself, which a response may echo (the query, the question).
   */
  const expectNothingOfBravo = (response: string, sent = '') => {
    const text = sent ? response.split(JSON.stringify(sent).slice(1, -1)).join('') : response
    for (const secret of SECRETS) expect(text).not.toContain(secret)
    for (const document of bravo) {
      expect(text).not.toContain(document.id)
      expect(text).not.toContain(document.filename)
    }
  }

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'rag-vector-leak-'))
    embedder = await loadTinyEmbedder({ modelsDir: join(scratch, 'models'), tokenizerDir })
    fixture = await startIngestionFixture('vector-leak', { embedder })
    const encode = (text: string) => new TextEncoder().encode(text)
    const [, ...rest] = await ingestFiles(fixture, scratch, [
      {
        filename: 'alpha-menu.txt',
        data: encode('The alpha canteen serves soup on Mondays.'),
        collection: 'alpha',
      },
      ...Array.from({ length: 6 }, (_, i) => ({
        filename: `bravo-secret-${i}.txt`,
        data: encode(
          `Bravo plan ${i}: the codeword is ${SECRETS[0]}. ${SECRETS[1]}。会議は${i}時に始まります。`,
        ),
        collection: 'bravo',
      })),
    ])
    bravo = rest
    gateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 2 },
      {
        getEmbedder: async () => embedder,
        access: { apiKeys: [ADMIN], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 },
      },
    )
    workers = startQuestionWorkers({
      ...fixture,
      pool: fixture.db.pool,
      retrieval: keywordOnlySearch.retrieval,
      embedder,
    })
    const made = await gateway.app.request('/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'alpha-reader', role: 'reader', collections: ['alpha'] }),
    })
    alphaKey = ((await made.json()) as { key: string }).key
  })

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway?.close()
    await fixture?.close()
    if (scratch) await rm(scratch, { recursive: true, force: true })
  })

  it('gets only its own passages from a vector and a hybrid search, by phrase and by parameter', async () => {
    // The admin sees that the embedder does return bravo for these (the test can fail).
    const admin = await gateway.app.request(
      `/search?q=${encodeURIComponent('the codeword')}&mode=vector&k=10`,
      {
        headers: { authorization: `Bearer ${ADMIN}` },
      },
    )
    expect(await admin.text()).toContain('bravo-secret-')
    for (const mode of ['vector', 'hybrid']) {
      for (const query of ['the codeword', 'QUASARMANGO', '秘密の合言葉は白樺七号', '会議は何時', 'soup']) {
        for (const extra of ['', '&collection=bravo']) {
          const searched = await call(`/search?q=${encodeURIComponent(query)}&mode=${mode}&k=20${extra}`)
          // Naming bravo is answered as naming a collection that does not exist.
          expect(searched.status).toBe(extra ? 404 : 200)
          expectNothingOfBravo(searched.text, query)
        }
      }
    }
  })

  it('is answered (or refused) from its own passages only when it asks by meaning', async () => {
    for (const mode of ['vector', 'hybrid']) {
      const question = `What is the codeword? ${SECRETS[0]}`
      const asked = await call('/ask', {
        method: 'POST',
        json: { question, options: { mode, answer: 'extractive' } },
      })
      expect(asked.status).toBe(202)
      const { id } = JSON.parse(asked.text) as { id: string }
      let answer = await call(`/ask/${id}`)
      await expect
        .poll(async () => {
          answer = await call(`/ask/${id}`)
          return isQuestionFinished((JSON.parse(answer.text) as { status: string }).status)
        })
        .toBe(true)
      expectNothingOfBravo(answer.text, question)
      expectNothingOfBravo((await call(`/ask/${id}/events`)).text, question)
    }
  })
})

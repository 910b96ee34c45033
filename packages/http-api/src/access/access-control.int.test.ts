import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { isQuestionFinished } from '@rag/api-contract/enums'
import type { DocumentRecord } from '@rag/ingest'
import { ingestFiles } from '@rag/ingest/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CollectionsGateway, startCollectionsGateway } from '../testing/collections-gateway.ts'

// Keys with roles and collections, and the leak test: a key of collection alpha must not read
// one byte of collection bravo through any door, by phrase, paraphrase, guessed id or parameter.
const ADMIN = 'bootstrap-admin-key-0123456789'
const SECRETS = ['ZEPHYRQUARTZ', '紫陽花九号']
const encode = (text: string) => new TextEncoder().encode(text)

let gateway: CollectionsGateway
let bravo: DocumentRecord
let alpha: DocumentRecord
const keys: Record<string, string> = {}

const call = async (key: string, path: string, init: RequestInit & { json?: unknown } = {}) => {
  const { json, ...rest } = init
  const response = await gateway.app.request(path, {
    ...rest,
    headers: {
      authorization: `Bearer ${key}`,
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(rest.headers as Record<string, string> | undefined),
    },
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  })
  return { status: response.status, text: await response.text() }
}

const makeKey = async (role: string, collections: string[] | null) => {
  const made = await call(ADMIN, '/keys', {
    method: 'POST',
    json: { name: `${role}-key`, role, collections },
  })
  expect(made.status, made.text).toBe(201)
  return JSON.parse(made.text) as { id: string; key: string; prefix: string }
}

beforeAll(async () => {
  gateway = await startCollectionsGateway(
    'access-control',
    [
      {
        filename: 'alpha-handbook.txt',
        text: 'The alpha handbook: the cafeteria opens at nine and closes at five.',
        collection: 'alpha',
      },
      {
        filename: 'bravo-plan.txt',
        text: `The launch codeword is ${SECRETS[0]}. The cafeteria of the bravo site opens at seven.\n機密の合言葉は${SECRETS[1]}です。`,
        collection: 'bravo',
      },
    ],
    ADMIN,
  )
  ;[alpha, bravo] = gateway.documents as [DocumentRecord, DocumentRecord]
  keys.reader = (await makeKey('reader', ['alpha'])).key
  keys.editor = (await makeKey('editor', ['alpha'])).key
  keys.bravoReader = (await makeKey('reader', ['bravo'])).key
})

afterAll(() => gateway?.close())

async function ask(key: string, question: string, options: Record<string, unknown> = {}) {
  const posted = await call(key, '/ask', {
    method: 'POST',
    json: { question, options: { mode: 'keyword', answer: 'extractive', ...options } },
  })
  const { id } = JSON.parse(posted.text) as { id: string }
  for (let wait = 20; ; wait = Math.min(wait * 1.5, 300)) {
    const polled = await call(key, `/ask/${id}`)
    if (isQuestionFinished((JSON.parse(polled.text) as { status: string }).status)) {
      const events = await call(key, `/ask/${id}/events`)
      return { posted, polled, events }
    }
    await new Promise((resolve) => setTimeout(resolve, wait))
  }
}

/** Collection bravo's secrets, id or file name in a response, beyond what the caller itself sent. */
const leaks = (text: string, asked = '') =>
  [...SECRETS, bravo.id, 'bravo-plan'].filter((secret) =>
    text.replaceAll(JSON.stringify(asked).slice(1, -1), '').includes(secret),
  )

describe('keys', () => {
  it('are shown once, stored hashed, listed by prefix, and refused from the next request once revoked', async () => {
    const made = await makeKey('reader', ['alpha'])
    expect(made.key).toMatch(/^rag_/)
    const { rows } = await gateway.fixture.db.pool.query('SELECT * FROM api_keys')
    expect(JSON.stringify(rows)).not.toContain(made.key)
    const listed = await call(ADMIN, '/keys')
    expect(listed.text).toContain(made.prefix)
    expect(listed.text).not.toContain(made.key)
    expect((await call(made.key, '/documents')).status).toBe(200)
    expect((await call(ADMIN, `/keys/${made.id}`, { method: 'DELETE' })).status).toBe(200)
    expect((await call(made.key, '/documents')).status).toBe(401)
  })

  it('are refused with 400 naming the field for a bad request, and 404 for an unknown id', async () => {
    for (const [json, field] of [
      [{ name: 'x', role: 'owner' }, 'role'],
      [{ name: '', role: 'reader' }, 'name'],
      [
        { name: 'x', role: 'reader', collections: Array.from({ length: 1001 }, (_, i) => `c${i}`) },
        'collections',
      ],
      [{ role: 'reader' }, 'name'],
    ] as const) {
      const refused = await call(ADMIN, '/keys', { method: 'POST', json })
      expect(refused.status, JSON.stringify(json).slice(0, 60)).toBe(400)
      expect(refused.text).toContain(field)
    }
    expect((await call(ADMIN, '/keys/not-a-uuid', { method: 'DELETE' })).status).toBe(400)
    expect(
      (await call(ADMIN, '/keys/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status,
    ).toBe(404)
    for (const query of ['before=abc', 'limit=0', 'limit=501', 'action=bogus'])
      expect((await call(ADMIN, `/audit?${query}`)).status, query).toBe(400)
  })

  it('take "*" for every collection, and refuse collections for an admin (who sees every one)', async () => {
    const all = await makeKey('reader', ['*'])
    const listed = JSON.parse((await call(ADMIN, '/keys')).text) as {
      keys: { id: string; collections: unknown }[]
    }
    expect(listed.keys.find((key) => key.id === all.id)?.collections).toBeNull()
    expect((await call(all.key, `/documents/${bravo.id}`)).status).toBe(200)
    for (const json of [
      { name: 'x', role: 'admin', collections: ['alpha'] },
      { name: 'x', role: 'reader', collections: ['*', 'alpha'] },
    ]) {
      const refused = await call(ADMIN, '/keys', { method: 'POST', json })
      expect(refused.status, JSON.stringify(json)).toBe(400)
      expect(refused.text).toMatch(/collections/)
    }
    expect(
      (await call(ADMIN, '/keys', { method: 'POST', json: { name: 'x', role: 'admin', collections: ['*'] } }))
        .status,
    ).toBe(201)
  })

  it('are for admins to make: a reader or an editor is refused (403)', async () => {
    for (const key of [keys.reader, keys.editor])
      expect(
        (await call(key as string, '/keys', { method: 'POST', json: { name: 'x', role: 'admin' } })).status,
      ).toBe(403)
  })
})

describe('the audit log of refusals', () => {
  it('records uploads with their collection, and refusals (403, 404) as refused', async () => {
    const refusedUpload = await call(keys.editor as string, '/documents/url', {
      method: 'POST',
      json: { url: 'https://example.com/', collection: 'bravo' },
    })
    expect(refusedUpload.status).toBe(403)
    expect((await call(keys.editor as string, `/documents/${bravo.id}`, { method: 'DELETE' })).status).toBe(
      404,
    )
    const { entries } = JSON.parse((await call(ADMIN, '/audit?limit=10')).text) as {
      entries: { action: string; collection: string | null; detail: { refused?: boolean; status: number } }[]
    }
    expect(entries.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: 'delete',
        detail: expect.objectContaining({ refused: true, status: 404 }),
      }),
      expect.objectContaining({
        action: 'upload',
        collection: 'bravo',
        detail: expect.objectContaining({ refused: true, status: 403 }),
      }),
    ])
  })
})

describe('the audit log of a reader’s refusals', () => {
  it('records a reader refused an editor’s action (403 for its role), as refused', async () => {
    const refused = await call(keys.reader as string, `/documents/${bravo.id}`, { method: 'DELETE' })
    expect(refused.status).toBe(403)
    const { entries } = JSON.parse((await call(ADMIN, '/audit?limit=1')).text) as {
      entries: { action: string; detail: { refused?: boolean; status: number } }[]
    }
    expect(entries[0]).toEqual(
      expect.objectContaining({
        action: 'delete',
        detail: expect.objectContaining({ refused: true, status: 403 }),
      }),
    )
  })
})

describe('threads', () => {
  it('cannot be scoped to a collection the key was not given (404, as for none)', async () => {
    const made = await call(keys.reader as string, '/conversations', {
      method: 'POST',
      json: { title: 'x', collection: 'bravo' },
    })
    expect(made.status).toBe(404)
    expect(made.text).toMatch(/no collection \\"bravo\\"/)
    expect(
      (await call(keys.reader as string, '/conversations', { method: 'POST', json: { collection: 'alpha' } }))
        .status,
    ).toBe(201)
  })
})

describe('roles', () => {
  it('let a reader read but not delete, an editor delete in its collections only, an admin re-index all', async () => {
    expect((await call(keys.reader as string, `/documents/${alpha.id}`, { method: 'DELETE' })).status).toBe(
      403,
    )
    expect((await call(keys.editor as string, '/reindex', { method: 'POST' })).status).toBe(403)
    expect(
      (await call(keys.editor as string, `/documents/${alpha.id}/reindex`, { method: 'POST' })).status,
    ).toBe(202)
    // Another collection's document does not exist for it: 404, as for a made-up id.
    expect((await call(keys.editor as string, `/documents/${bravo.id}`, { method: 'DELETE' })).status).toBe(
      404,
    )
    expect(
      (await call(keys.editor as string, `/documents/${bravo.id}/reindex`, { method: 'POST' })).status,
    ).toBe(404)
  })
})

describe('the leak test: a key of alpha reads nothing of bravo through any door', () => {
  // What was asked is echoed back (the query, the question): only the rest may not hold a secret.
  it('search, by the exact phrase, a paraphrase, and collection=bravo', async () => {
    for (const q of [SECRETS[0], SECRETS[1], 'launch codeword', 'bravo cafeteria opens', '機密の合言葉'])
      for (const extra of ['', '&collection=bravo'])
        for (const mode of ['keyword', 'hybrid']) {
          const found = await call(
            keys.reader as string,
            `/search?q=${encodeURIComponent(q as string)}&mode=${mode}${extra}`,
          )
          // Naming bravo is answered as naming a collection that does not exist.
          expect(found.status).toBe(extra ? 404 : 200)
          expect(leaks(found.text, q), `${q} ${extra}`).toEqual([])
        }
    // The same search with bravo's key finds it: the filter, not the search, kept it out.
    const own = await call(keys.bravoReader as string, `/search?q=${SECRETS[0]}&mode=keyword`)
    expect(JSON.stringify((JSON.parse(own.text) as { hits: unknown[] }).hits)).toContain(SECRETS[0])
  })

  it('ask, its answer, sources and event stream; and a collection=bravo option', async () => {
    for (const question of [
      `What is the launch codeword ${SECRETS[0]}?`,
      '機密の合言葉は何ですか',
      'When does the cafeteria open?',
    ]) {
      const { posted, polled, events } = await ask(keys.reader as string, question)
      for (const part of [posted.text, polled.text, events.text])
        expect(leaks(part, question), question).toEqual([])
      // Asked of bravo by name: refused at once, as for a collection that does not exist.
      for (const collection of ['bravo', 'nowhere']) {
        const refused = await call(keys.reader as string, '/ask', {
          method: 'POST',
          json: { question, options: { collection } },
        })
        expect(refused.status).toBe(404)
        expect(refused.text).toBe(`{"error":{"message":"no collection \\"${collection}\\""}}`)
      }
    }
    const own = await ask(keys.bravoReader as string, `What is the launch codeword ${SECRETS[0]}?`)
    expect(JSON.stringify((JSON.parse(own.polled.text) as { sources: unknown[] }).sources)).toContain(
      SECRETS[0],
    )
  })

  it('documents by list, guessed id, sections and file: 404 as if it did not exist', async () => {
    const listed = await call(keys.reader as string, '/documents')
    expect(listed.text).toContain(alpha.id)
    expect(leaks(listed.text)).toEqual([])
    expect(leaks((await call(keys.reader as string, '/documents?collection=bravo')).text)).toEqual([])
    for (const path of [
      `/documents/${bravo.id}`,
      `/documents/${bravo.id}/sections`,
      `/documents/${bravo.id}/file`,
    ]) {
      const response = await call(keys.reader as string, path)
      expect(response.status, path).toBe(404)
      const missing = await call(
        keys.reader as string,
        path.replace(bravo.id, '00000000-0000-4000-8000-000000000000'),
      )
      // The same answer as for an id that exists nowhere: no existence oracle.
      expect(response.text).toBe(missing.text)
    }
  })

  it('OpenAI models and chat completions, and a thread started by bravo continued by alpha', async () => {
    const models = await call(keys.reader as string, '/v1/models')
    expect(models.text).toContain('alpha')
    expect(models.text).not.toContain('bravo')
    const chat = await call(keys.reader as string, '/v1/chat/completions', {
      method: 'POST',
      json: { model: 'bravo', messages: [{ role: 'user', content: `codeword ${SECRETS[0]}` }] },
    })
    expect(chat.status).toBe(404)
    expect(leaks(chat.text, `codeword ${SECRETS[0]}`)).toEqual([])
    const thread = await call(keys.bravoReader as string, '/conversations', { method: 'POST', json: {} })
    const { id } = JSON.parse(thread.text) as { id: string }
    await call(keys.bravoReader as string, `/conversations/${id}/messages`, {
      method: 'POST',
      json: {
        message: `What is the launch codeword ${SECRETS[0]}?`,
        options: { mode: 'keyword', answer: 'extractive' },
      },
    })
    for (const init of [{}, { method: 'POST', json: { message: 'and the other one?' } }]) {
      const path = init.method ? `/conversations/${id}/messages` : `/conversations/${id}`
      const continued = await call(keys.reader as string, path, init)
      expect(continued.status).toBe(404)
      expect(leaks(continued.text)).toEqual([])
    }
  })
})

describe('MCP with a key of collection alpha', () => {
  it('tools and resources: search, ask, chat, list and get documents, read a document resource', async () => {
    const client = new Client({ name: 'leak-probe', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://gateway.test/mcp'), {
        requestInit: { headers: { authorization: `Bearer ${keys.reader}` } },
        // The gateway in-process: the same app, its key check and filters.
        fetch: (url, init) => Promise.resolve(gateway.app.request(String(url), init as RequestInit)),
      }),
    )
    const seen: string[] = []
    const probe = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args }).catch((error: Error) => error.message)
      seen.push(JSON.stringify(result).replaceAll(JSON.stringify(args).slice(1, -1), ''))
    }
    await probe('search', { query: SECRETS[0] })
    await probe('search', { query: '機密の合言葉', collection: 'bravo' })
    await probe('ask', {
      question: `What is the launch codeword ${SECRETS[0]}?`,
      options: { answer: 'extractive' },
    })
    await probe('chat', { message: `What is the launch codeword ${SECRETS[0]}?` })
    await probe('list_documents', {})
    await probe('list_documents', { collection: 'bravo' })
    await probe('get_document', { id: bravo.id })
    seen.push(JSON.stringify(await client.listResources()))
    seen.push(
      JSON.stringify(
        await client
          .readResource({ uri: `rag://documents/${bravo.id}` })
          .catch((error: Error) => error.message),
      ),
    )
    expect(seen.join('\n')).toContain(alpha.id)
    for (const text of seen) expect(leaks(text)).toEqual([])
    await client.close()
  })
})

describe('collections that come and go', () => {
  it('a grant to a collection begun without documents sees nothing, then what is added to it', async () => {
    expect(
      (
        await call(ADMIN, '/keys', {
          method: 'POST',
          json: { name: 'x', role: 'reader', collections: ['charlie'] },
        })
      ).status,
    ).toBe(400)
    expect((await call(ADMIN, '/collections', { method: 'POST', json: { name: 'charlie' } })).status).toBe(
      201,
    )
    const early = (await makeKey('reader', ['charlie'])).key
    const before = await call(early, '/documents')
    expect(before.status).toBe(200)
    expect((JSON.parse(before.text) as { documents: unknown[] }).documents).toEqual([])
    expect(leaks(before.text)).toEqual([])
    const [charlie] = await ingestFiles(gateway.fixture, gateway.uploadDir, [
      {
        filename: 'charlie-notes.txt',
        data: encode('Charlie notes: the lift is serviced on Fridays.'),
        collection: 'charlie',
      },
    ])
    const after = await call(early, '/documents')
    expect(after.text).toContain(charlie?.id)
    expect(after.text).not.toContain(alpha.id)
  })

  it('a key whose collection was emptied finds nothing, and is not told anything else', async () => {
    const [delta] = await ingestFiles(gateway.fixture, gateway.uploadDir, [
      {
        filename: 'delta-memo.txt',
        data: encode('Delta memo: budget review on the first Monday.'),
        collection: 'delta',
      },
    ])
    const deltaKey = (await makeKey('reader', ['delta'])).key
    expect((await call(deltaKey, '/documents')).text).toContain(delta?.id)
    expect((await call(ADMIN, `/documents/${delta?.id}`, { method: 'DELETE' })).status).toBeLessThan(300)
    const listed = await call(deltaKey, '/documents')
    expect(listed.status).toBe(200)
    expect((JSON.parse(listed.text) as { documents: unknown[] }).documents).toEqual([])
    const searched = await call(
      deltaKey,
      `/search?q=${encodeURIComponent(SECRETS[0] as string)}&mode=keyword`,
    )
    expect(searched.status).toBe(200)
    expect(leaks(searched.text, SECRETS[0] as string)).toEqual([])
    expect((await call(deltaKey, '/v1/models')).text).not.toContain('alpha')
  })
})

describe('the audit log', () => {
  it('records who made and revoked keys, asked and re-indexed, with the address, never a key', async () => {
    const page = await call(ADMIN, '/audit?limit=500')
    expect(page.status).toBe(200)
    const { entries: all } = JSON.parse(page.text) as {
      entries: { actor: string; action: string; target: string; detail: { refused?: boolean } }[]
    }
    // What was done (refusals are recorded too, and told apart).
    const entries = all.filter((entry) => !entry.detail.refused)
    const actions = new Set(entries.map((entry) => entry.action))
    for (const action of ['key.create', 'key.revoke', 'ask', 'reindex']) expect(actions).toContain(action)
    expect(entries.find((entry) => entry.action === 'key.create')?.actor).toBe('bootstrap')
    expect(entries.find((entry) => entry.action === 'reindex')?.target).toBe(alpha.id)
    for (const key of Object.values(keys)) expect(page.text).not.toContain(key)
    expect((await call(keys.reader as string, '/audit')).status).toBe(403)
    const asks = JSON.parse((await call(ADMIN, '/audit?action=ask&limit=1')).text) as {
      entries: unknown[]
      next: string | null
    }
    expect(asks.entries).toHaveLength(1)
    expect(asks.next).not.toBeNull()
  })
})

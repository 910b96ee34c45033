import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isQuestionFinished } from '@rag/api-contract/enums'
import { createPool, openReadReplica, quoteIdentifier, type ReadReplica } from '@rag/db'
import {
  type ReplicatedPostgres,
  startReplicatedPostgres,
  startTcpProxy,
  type TcpProxy,
} from '@rag/db/testing'
import { reconcileDocuments, registerDocument } from '@rag/ingest'
import { type IngestionFixture, ingestFiles, startIngestionFixture } from '@rag/ingest/testing'
import { reconcileQuestions } from '@rag/questions'
import { startQuestionWorkers } from '@rag/questions/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from './testing.ts'

// Postgres past one instance: a primary and a real streaming replica (pg_basebackup) made by the
// test. Searches read the replica once it has replayed what the primary had committed when they
// began; writes stay on the primary. The primary is reached through a service address (here a
// TCP proxy) that an operator, or Patroni, moves to the replica once it is promoted.
const encode = (text: string) => new TextEncoder().encode(text)
const DOCUMENTS = 100
const port = (url: string) => Number(new URL(url).port)

interface Platform {
  postgres: ReplicatedPostgres
  proxy: TcpProxy
  fixture: IngestionFixture
  reads: ReadReplica
  gateway: TestGateway
  workers: { close(): Promise<void> }[]
  scratch: string
}

async function startPlatform(label: string): Promise<Platform> {
  const postgres = await startReplicatedPostgres()
  const proxy = await startTcpProxy(port(postgres.primaryUrl))
  const fixture = await startIngestionFixture(label, {
    databaseUrl: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`,
  })
  const reads = openReadReplica({
    primary: fixture.db.pool,
    url: postgres.replicaUrl,
    schema: fixture.db.schema,
    maxLagSeconds: 5,
    logger: fixture.logger,
  })
  const scratch = await mkdtemp(join(tmpdir(), `rag-${label}-`))
  const gateway = await createTestGateway(
    { ...fixture, pool: fixture.db.pool },
    { uploadDir: scratch, maxBytes: 1e6, maxFiles: 5 },
    { reads },
  )
  const workers = startQuestionWorkers({
    ...fixture,
    pool: fixture.db.pool,
    retrieval: keywordOnlySearch.retrieval,
    reads,
  })
  return { postgres, proxy, fixture, reads, gateway, workers, scratch }
}

async function stopPlatform(platform: Platform | undefined) {
  if (!platform) return
  await Promise.all(platform.workers.map((worker) => worker.close()))
  await platform.gateway.close()
  await platform.reads.close()
  await platform.fixture.close()
  await platform.proxy.close()
  await platform.postgres.stop()
  await rm(platform.scratch, { recursive: true, force: true })
}

/** What an operator (or Patroni) does when the primary's host is gone: promote, move the address. */
async function failOver({ postgres, proxy }: Platform) {
  await postgres.promoteReplica()
  proxy.moveTo(port(postgres.replicaUrl))
}

const searchFinds = async (platform: Platform, word: string) => {
  const response = await platform.gateway.app.request(`/search?q=${word}&mode=keyword`)
  return ((await response.json()) as { hits: { text: string }[] }).hits.some((hit) => hit.text.includes(word))
}

describe('a read replica for searches', () => {
  let platform: Platform
  beforeAll(async () => {
    platform = await startPlatform('read-replica')
  })
  afterAll(() => stopPlatform(platform))

  it('serves searches once it has caught up, and a document made ready while it lags is still found', async () => {
    const { fixture, reads, postgres, scratch } = platform
    await ingestFiles(fixture, scratch, [
      { filename: 'harbor.txt', data: encode('The harbor pilot QUOKKAHARBOR boards at dawn.') },
    ])
    const before = reads.counts.replica
    expect(await searchFinds(platform, 'QUOKKAHARBOR')).toBe(true)
    expect(reads.counts.replica).toBeGreaterThan(before)

    // The replica stops applying what it receives: a document made ready now is on the primary only.
    await postgres.pauseReplay()
    try {
      await ingestFiles(fixture, scratch, [
        { filename: 'ferry.txt', data: encode('The WOMBATFERRY leaves the pier at noon.') },
      ])
      const fellBack = reads.counts.behind + reads.counts['far-behind']
      expect(await searchFinds(platform, 'WOMBATFERRY')).toBe(true)
      expect(reads.counts.behind + reads.counts['far-behind']).toBeGreaterThan(fellBack)
      // A question about it finds it too (the retrieve worker follows the same rule).
      const asked = await platform.gateway.app.request('/ask', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          question: 'When does the WOMBATFERRY leave?',
          options: { answer: 'extractive' },
        }),
      })
      const { id } = (await asked.json()) as { id: string }
      let answer = { status: 'queued', sources: [] as { sourceId: string }[] }
      await expect
        .poll(async () => {
          answer = (await (await platform.gateway.app.request(`/ask/${id}`)).json()) as typeof answer
          return isQuestionFinished(answer.status)
        })
        .toBe(true)
      expect(answer.sources.map((source) => source.sourceId.split(':')[0])).toContain('ferry.txt')
    } finally {
      await postgres.resumeReplay()
    }
    // Caught up again: back on the replica.
    const resumed = reads.counts.replica
    await expect
      .poll(async () => (await searchFinds(platform, 'WOMBATFERRY')) && reads.counts.replica > resumed)
      .toBe(true)
  })

  it('skips a replica further behind than READ_REPLICA_MAX_LAG without waiting for it', async () => {
    const { fixture, postgres } = platform
    const strict = openReadReplica({
      primary: fixture.db.pool,
      url: postgres.replicaUrl,
      schema: fixture.db.schema,
      maxLagSeconds: 0,
      logger: fixture.logger,
    })
    await postgres.pauseReplay()
    try {
      await fixture.db.pool.query('SELECT txid_current()')
      await expect.poll(async () => (await strict.choose()).reason).toBe('far-behind')
    } finally {
      await postgres.resumeReplay()
      await strict.close()
    }
  })

  it('reads the primary when the replica does not answer, and does not ask it again at once', async () => {
    const { fixture } = platform
    const gone = openReadReplica({
      primary: fixture.db.pool,
      url: 'postgres://postgres@127.0.0.1:1/postgres',
      schema: fixture.db.schema,
      maxLagSeconds: 5,
      logger: fixture.logger,
    })
    expect((await gone.choose()).reason).toBe('down')
    const second = await gone.choose()
    expect(second).toMatchObject({ on: 'primary', reason: 'down' })
    expect(gone.counts.down).toBe(2)
    await gone.close()
  })
})

describe('the primary lost', () => {
  let platform: Platform
  beforeAll(async () => {
    platform = await startPlatform('primary-failover')
  })
  afterAll(() => stopPlatform(platform))

  it('the replica promoted and the address moved: work in flight finishes, nothing accepted is lost, no process restarted', async () => {
    const { fixture, postgres, scratch, gateway } = platform
    const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
    const ids: string[] = []
    for (let i = 0; i < DOCUMENTS; i++) {
      const { document } = await registerDocument(
        deps,
        { uploadDir: scratch, maxBytes: 1e6 },
        { filename: `memo-${i}.txt`, data: encode(`Memo ${i}: the depot ${i} opens at ${i % 12} o'clock.`) },
      )
      ids.push(document.id)
    }
    const asked = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const response = await gateway.app.request('/ask', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ question: `When does depot ${i} open?`, options: { answer: 'extractive' } }),
        })
        expect(response.status).toBe(202)
        return ((await response.json()) as { id: string }).id
      }),
    )
    // The primary's host dies with work in flight; the operator promotes the replica and moves
    // the address to it.
    const { rows } = await fixture.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::uuid[]) AND status <> 'ready'",
      [ids],
    )
    expect(rows[0]?.n).toBeGreaterThan(0)
    await postgres.stopPrimary()
    await failOver(platform)

    await expect
      .poll(
        async () => {
          await reconcileDocuments(deps, { staleAfterMs: 2000 }).catch(() => undefined)
          await reconcileQuestions(deps, { staleAfterMs: 2000 }).catch(() => undefined)
          const documents = await fixture.db.pool.query<{ status: string }>(
            'SELECT status FROM documents WHERE id = ANY($1::uuid[])',
            [ids],
          )
          const questions = await fixture.db.pool.query<{ status: string }>(
            'SELECT status FROM questions WHERE id = ANY($1::uuid[])',
            [asked],
          )
          return {
            documents: documents.rows.length,
            notReady: documents.rows.filter((row) => row.status !== 'ready').length,
            questions: questions.rows.length,
            unfinished: questions.rows.filter((row) => !isQuestionFinished(row.status)).length,
          }
        },
        { timeout: 240_000, interval: 1000 },
      )
      .toEqual({ documents: DOCUMENTS, notReady: 0, questions: 10, unfinished: 0 })
    // New work goes on, on the new primary; searches read it (the old replica is no standby now).
    await ingestFiles(fixture, scratch, [
      { filename: 'after.txt', data: encode('After the failover: PANGOLINDEPOT.') },
    ])
    expect(await searchFinds(platform, 'PANGOLINDEPOT')).toBe(true)
    expect(platform.reads.counts['not-a-standby']).toBeGreaterThan(0)
  }, 600_000)
})

describe('the primary lost inside a store transaction', () => {
  let platform: Platform
  beforeAll(async () => {
    platform = await startPlatform('primary-lost-mid-store')
  })
  afterAll(() => stopPlatform(platform))

  const report = (word: string) =>
    encode(
      ['Harbour', 'Depot', 'Ferry']
        .map(
          (place) =>
            `# ${place}\n\nThe ${place.toLowerCase()} report of ${word}: open from eight, closed on Sundays.`,
        )
        .join('\n\n'),
    )
  const storedOf = async (pool: Platform['fixture']['db']['pool'], documentId: string) =>
    (
      await pool.query<{ chunks: number; distinct_chunks: number; sections: number }>(
        `SELECT (SELECT count(*)::int FROM chunks WHERE document_id = $1) AS chunks,
                (SELECT count(DISTINCT (section_id, chunk_index))::int FROM chunks WHERE document_id = $1) AS distinct_chunks,
                (SELECT count(*)::int FROM sections WHERE document_id = $1) AS sections`,
        [documentId],
      )
    ).rows[0]

  it('rolls the part back with the primary; stored again on the promoted replica, exactly once', async () => {
    const { fixture, postgres, scratch } = platform
    const deps = { pool: fixture.db.pool, producer: fixture.producer, logger: fixture.logger }
    // A document of the same shape, stored before: what the pinned one must end up as.
    const [control] = await ingestFiles(fixture, scratch, [
      { filename: 'control.md', data: report('CONTROLWORD') },
    ])
    const expected = await storedOf(fixture.db.pool, control?.id ?? '')
    expect(expected?.chunks).toBeGreaterThan(0)

    // Pinned: the chunks' insert waits, inside the store transaction (its sections already
    // written), on an advisory lock a session on the primary itself (not through the address)
    // holds: a statement trigger made for this test, nothing the platform has.
    const schema = quoteIdentifier(fixture.db.schema)
    await fixture.db.pool.query(
      `CREATE FUNCTION ${schema}.pin_store() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN PERFORM pg_advisory_xact_lock(4242); RETURN NULL; END $$;
       CREATE TRIGGER pin_store BEFORE INSERT ON ${schema}.chunks
         FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.pin_store()`,
    )
    const direct = createPool({ url: postgres.primaryUrl, max: 1 })
    direct.on('error', () => undefined)
    const holder = await direct.connect()
    holder.on('error', () => undefined)
    await holder.query('SELECT pg_advisory_lock(4242)')
    const { document } = await registerDocument(
      deps,
      { uploadDir: scratch, maxBytes: 1e6 },
      { filename: 'pinned.md', data: report('PINNEDWORD') },
    )
    await expect
      .poll(
        async () =>
          (
            await holder.query<{ waiting: string }>(
              `SELECT left(query, 18) AS waiting FROM pg_stat_activity
                WHERE wait_event_type = 'Lock' AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()`,
            )
          ).rows.map((row) => row.waiting),
        { timeout: 60_000, interval: 50 },
      )
      // The chunks' insert is pinned (another step of the document may wait behind its row lock
      // too, as a loaded machine's timing has it: the insert is what this asserts).
      .toContain('INSERT INTO chunks')
    // Nothing of it is visible yet: the transaction has not committed.
    expect(await storedOf(fixture.db.pool, document.id)).toEqual({
      chunks: 0,
      distinct_chunks: 0,
      sections: 0,
    })

    // The host dies now, the transaction open; the replica is promoted and the address moved.
    await postgres.stopPrimary()
    holder.release(true)
    await direct.end().catch(() => undefined)
    await failOver(platform)

    // What the user sees: the document still in `storing`, then ready (the store job's attempt
    // failed with the connection and was retried), with its sections and chunks exactly once.
    await expect
      .poll(
        async () => {
          await reconcileDocuments(deps, { staleAfterMs: 2000 }).catch(() => undefined)
          const { rows } = await fixture.db.pool.query<{ status: string }>(
            'SELECT status FROM documents WHERE id = $1',
            [document.id],
          )
          return rows[0]?.status
        },
        { timeout: 240_000, interval: 500 },
      )
      .toBe('ready')
    expect(await storedOf(fixture.db.pool, document.id)).toEqual(expected)
    // Found by search at once (it failed once under two busy loops: what it saw is said if again).
    const searched = await platform.gateway.app.request('/search?q=PINNEDWORD&mode=keyword')
    const body = (await searched.json()) as {
      hits?: { sourceId: string; text: string }[]
      degraded?: string[]
    }
    const { rows: versions } = await fixture.db.pool.query(
      `SELECT d.status, d.active_hash = ANY (ARRAY(SELECT DISTINCT content_hash FROM chunks c WHERE c.document_id = d.id)) AS active
         FROM documents d WHERE d.id = $1`,
      [document.id],
    )
    const seen = { status: searched.status, body, reads: platform.reads.counts, versions }
    expect(
      body.hits?.some((hit) => hit.text.includes('PINNEDWORD')),
      JSON.stringify(seen),
    ).toBe(true)
  }, 600_000)
})

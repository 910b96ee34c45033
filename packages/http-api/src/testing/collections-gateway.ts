import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DocumentRecord } from '@rag/ingest'
import { type IngestionFixture, ingestFiles, startIngestionFixture } from '@rag/ingest/testing'
import { startQuestionWorkers } from '@rag/questions/testing'
import { afterAll, beforeAll } from 'vitest'
import { createTestGateway, keywordOnlySearch, type TestGateway } from '../test-gateway.ts'

/** A gateway behind API keys over documents of named collections, with the question workers. */
export interface CollectionsGateway {
  app: TestGateway['app']
  fixture: IngestionFixture
  /** The documents, in the order given, ready. */
  documents: DocumentRecord[]
  /** Where uploads go: for documents a test adds later (ingestFiles). */
  uploadDir: string
  close(): Promise<void>
}

/**
 * What the access and collection tests start from: the files ingested into their collections,
 * keyword search and extractive answers, `adminKey` the bootstrap key (no limits on rate).
 */
export async function startCollectionsGateway(
  label: string,
  files: ({ filename: string; collection: string } & ({ text: string } | { data: Uint8Array }))[],
  adminKey: string,
): Promise<CollectionsGateway> {
  const scratch = await mkdtemp(join(tmpdir(), `rag-${label}-`))
  const fixture = await startIngestionFixture(label)
  let workers: { close(): Promise<void> }[] = []
  let gateway: TestGateway | undefined
  const close = async () => {
    await Promise.all(workers.map((worker) => worker.close()))
    await gateway?.close()
    await fixture.close()
    await rm(scratch, { recursive: true, force: true })
  }
  try {
    const documents = await ingestFiles(
      fixture,
      scratch,
      files.map((file) => ({
        filename: file.filename,
        data: 'data' in file ? file.data : new TextEncoder().encode(file.text),
        collection: file.collection,
      })),
    )
    workers = startQuestionWorkers({
      ...fixture,
      pool: fixture.db.pool,
      retrieval: keywordOnlySearch.retrieval,
    })
    gateway = await createTestGateway(
      { ...fixture, pool: fixture.db.pool },
      { uploadDir: scratch, maxBytes: 1e6, maxFiles: 2 },
      { access: { apiKeys: [adminKey], corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } },
    )
    return { app: gateway.app, fixture, documents, uploadDir: scratch, close }
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * A request to the gateway with a key, a JSON body when given, and its status and JSON answer: how
 * the tests of keyed collections speak to it.
 */
export function keyedCaller(gateway: Pick<CollectionsGateway, 'app'>) {
  return async (key: string, method: string, path: string, json?: unknown) => {
    const response = await gateway.app.request(path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
}

/** A person a collections gateway gets a key for: name, role, the collections of the key (null: all). */
export type KeyedPerson = readonly [name: string, role: string, collections: readonly string[] | null]

/** Keys made by the admin for the tests' people: name → key. */
export async function mintKeys(
  gateway: Pick<CollectionsGateway, 'app'>,
  adminKey: string,
  people: readonly KeyedPerson[],
): Promise<Record<string, string>> {
  const call = keyedCaller(gateway)
  // As an admin does for a team before its first document: keys may only name collections that exist.
  for (const collection of new Set(people.flatMap(([, , collections]) => collections ?? []))) {
    const created = await call(adminKey, 'POST', '/collections', { name: collection })
    if (created.status !== 201 && created.status !== 409)
      throw new Error(`collection ${collection}: ${created.status} ${JSON.stringify(created.body)}`)
  }
  const keys: Record<string, string> = {}
  for (const [name, role, collections] of people) {
    const made = await call(adminKey, 'POST', '/keys', { name, role, collections })
    if (made.status !== 201) throw new Error(`key ${name}: ${made.status} ${JSON.stringify(made.body)}`)
    keys[name] = made.body.key as string
  }
  return keys
}

/**
 * A test file's collections gateway: started before its tests (the files ingested, a key minted by
 * the admin for each person), closed after them. `gateway` and `keys` are there once the tests run.
 */
export function collectionsGatewayOfFile(
  label: string,
  files: Parameters<typeof startCollectionsGateway>[1],
  people: readonly KeyedPerson[] = [],
) {
  const world = {
    /** The bootstrap admin's key (no limits on rate). */
    adminKey: `${label}-admin-key-0123456789abcdef`,
    gateway: undefined as unknown as CollectionsGateway,
    /** Each person's key, by name. */
    keys: {} as Record<string, string>,
    call: (key: string, method: string, path: string, json?: unknown) =>
      keyedCaller(world.gateway)(key, method, path, json),
  }
  beforeAll(async () => {
    world.gateway = await startCollectionsGateway(label, files, world.adminKey)
    Object.assign(world.keys, await mintKeys(world.gateway, world.adminKey, people))
  })
  afterAll(() => world.gateway?.close())
  return world
}

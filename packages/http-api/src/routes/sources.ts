import { randomUUID } from 'node:crypto'
import { OpenAPIHono, z } from '@hono/zod-openapi'
import { canSee, collectionExists } from '@rag/access'
import {
  type ApiSource,
  type ApiSourceSync,
  sourceChangedSchema,
  sourceChangeSchema,
  sourceListSchema,
  sourceRequestSchema,
  sourceRequestSchemaByKind,
  sourceSchema,
  sourceSyncListSchema,
  sourceSyncStartedSchema,
} from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { deleteDocument } from '@rag/ingest'
import type { Producer } from '@rag/queue'
import {
  type CredentialKeys,
  getSource,
  insertSource,
  latestSyncs,
  listSources,
  placeIsPrivate,
  recentSyncs,
  removeSource,
  requestSync,
  type SourceRecord,
  type SyncRecord,
  sealCredentials,
  updateSource,
} from '@rag/sources'
import { principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { unknownCollectionMessage } from '../access/collection-access.ts'
import { defineRoute } from '../access/route-policy.ts'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  errorResponse,
  jsonBody,
  jsonResponse,
  jsonWriteErrors,
  readErrors,
  uuidParam,
  writeErrors,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

const idParams = z.object({ id: uuidParam('id', 'The source') })

const addRoute = defineRoute(
  {
    method: 'post',
    path: '/sources',
    operationId: 'addSource',
    tags: ['sources'],
    summary:
      'Add a source (editor of its collection; a local path or a private address: admin): a web site, a WebDAV folder, an S3 prefix or a Git ref kept in sync with a collection. Its first sync starts at once',
    request: { body: jsonBody(sourceRequestSchema) },
    responses: {
      201: jsonResponse('The source (its credentials are kept sealed and never shown)', sourceSchema),
      ...jsonWriteErrors('No such collection (create it first, or upload a document into it)'),
      409: errorResponse('A source of that name exists in that collection'),
    },
  },
  { role: 'editor', audit: 'source.change' },
)

const listRoute = defineRoute(
  {
    method: 'get',
    path: '/sources',
    operationId: 'listSources',
    tags: ['sources'],
    summary: 'The sources of the collections this key sees, each with its last sync',
    responses: { 200: jsonResponse('The sources, by name', sourceListSchema), ...commonErrors },
  },
  { role: 'reader' },
)

const getRoute = defineRoute(
  {
    method: 'get',
    path: '/sources/{id}',
    operationId: 'getSource',
    tags: ['sources'],
    summary: 'A source and its last sync (progress while it runs: files seen, new, changed, deleted, failed)',
    request: { params: idParams },
    responses: {
      200: jsonResponse('The source', sourceSchema),
      ...readErrors('No such source for this key'),
    },
  },
  { role: 'reader' },
)

const syncsRoute = defineRoute(
  {
    method: 'get',
    path: '/sources/{id}/syncs',
    operationId: 'listSourceSyncs',
    tags: ['sources'],
    summary: "A source's latest syncs (20), newest first, failures with their reasons",
    request: { params: idParams },
    responses: {
      200: jsonResponse('The syncs', sourceSyncListSchema),
      ...readErrors('No such source for this key'),
    },
  },
  { role: 'reader' },
)

const syncRoute = defineRoute(
  {
    method: 'post',
    path: '/sources/{id}/sync',
    operationId: 'syncSource',
    tags: ['sources'],
    summary:
      'Sync a source now (editor); one sync per source at a time: one already waiting or running is the answer',
    request: { params: idParams },
    responses: {
      202: jsonResponse('The sync that will run', sourceSyncStartedSchema),
      ...writeErrors('No such source for this key'),
    },
  },
  { role: 'editor', audit: 'source.sync' },
)

const changeRoute = defineRoute(
  {
    method: 'patch',
    path: '/sources/{id}',
    operationId: 'changeSource',
    tags: ['sources'],
    summary:
      'Change a source (editor): new credentials (an expired token), its schedule, or its settings; what was indexed stays, and a sync starts when the place or credentials changed',
    request: { params: idParams, body: jsonBody(sourceChangeSchema) },
    responses: {
      200: jsonResponse('The source as it now is, and the sync the change started', sourceChangedSchema),
      ...jsonWriteErrors('No such source for this key'),
    },
  },
  { role: 'editor', audit: 'source.change' },
)

const removeRoute = defineRoute(
  {
    method: 'delete',
    path: '/sources/{id}',
    operationId: 'removeSource',
    tags: ['sources'],
    summary: 'Remove a source and the documents it brought (editor)',
    request: { params: idParams },
    responses: {
      204: { description: 'Removed' },
      ...writeErrors('No such source for this key'),
    },
  },
  { role: 'editor', audit: 'source.change' },
)

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null)

export const apiSync = (sync: SyncRecord): ApiSourceSync => ({
  id: sync.id,
  status: sync.status,
  trigger: sync.trigger,
  seen: sync.seen,
  added: sync.added,
  changed: sync.changed,
  unchanged: sync.unchanged,
  deleted: sync.deleted,
  failed: sync.failed,
  ignored: sync.ignored,
  failures: sync.failures,
  error: sync.error,
  startedAt: new Date(sync.startedAt).toISOString(),
  finishedAt: iso(sync.finishedAt),
})

const apiSource = (source: SourceRecord, lastSync: SyncRecord | undefined): ApiSource => ({
  id: source.id,
  name: source.name,
  kind: source.kind,
  collection: source.collection,
  settings: source.settings,
  hasCredentials: source.credentials !== null,
  intervalMinutes: source.intervalSeconds === null ? null : Math.round(source.intervalSeconds / 60),
  nextSyncAt: iso(source.nextSyncAt),
  createdBy: source.createdBy,
  createdAt: new Date(source.createdAt).toISOString(),
  lastSync: lastSync ? apiSync(lastSync) : null,
})

/** The problems of a value checked against a kind's schema, as the 400 says them. */
function checked(schema: z.ZodType, value: unknown, field: string): Record<string, unknown> {
  const result = schema.safeParse(value)
  if (result.success) return (result.data ?? {}) as Record<string, unknown>
  const issue = result.error.issues[0]
  const at = [field, ...(issue?.path ?? []).map(String)].join('.')
  throw new HttpError(400, `${at}: ${issue?.message ?? 'not valid'}`, { field: at })
}

export interface SourceRouteDeps {
  pool: Pool
  producer: Pick<Producer, 'enqueueAgain' | 'queues'>
  /** SOURCES_SECRET (and those rotated out); absent: a source with credentials is refused. */
  credentialKeys: CredentialKeys | null
  /** SOURCES_ALLOW_PRIVATE: a source on one of these is an admin's to add, as one on a private address. */
  privateHosts: readonly string[]
}

/**
 * Sources: places a team keeps its documents, kept in sync with a collection by the watcher
 * (packages/sources). Who may add, sync or remove one follows the collection's roles.
 */
export function sourceRoutes(deps: SourceRouteDeps) {
  const visible = async (c: Parameters<typeof principalOf>[0], id: string) => {
    const source = await getSource(deps.pool, id)
    if (!source || !canSee(principalOf(c), source.collection)) throw new HttpError(404, `no source ${id}`)
    auditCollection(c, source.collection)
    return source
  }
  /** Credentials given (empty values dropped), sealed; null when none; refused without SOURCES_SECRET. */
  const sealed = (given: Record<string, string | undefined> | null | undefined) => {
    const credentials = Object.fromEntries(
      Object.entries(given ?? {}).filter((entry): entry is [string, string] => Boolean(entry[1])),
    )
    if (Object.keys(credentials).length === 0) return null
    if (!deps.credentialKeys)
      throw new HttpError(
        400,
        'credentials: SOURCES_SECRET is not set, so credentials cannot be stored; set it on the gateway and the watcher',
        { field: 'credentials' },
      )
    return sealCredentials(deps.credentialKeys, credentials)
  }
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(addRoute, async (c) => {
      const request = c.req.valid('json')
      const principal = principalOf(c)
      if (!canSee(principal, request.collection))
        throw new HttpError(
          403,
          `this key may not add to the collection ${JSON.stringify(request.collection)}`,
        )
      auditCollection(c, request.collection)
      if (!(await collectionExists(deps.pool, request.collection)))
        throw new HttpError(404, unknownCollectionMessage(request.collection), { field: 'collection' })
      if (principal.role !== 'admin' && placeIsPrivate(request.kind, request.settings, deps.privateHosts))
        throw new HttpError(
          403,
          'a source on this machine (a local path) or on a private address is added by an admin only',
        )
      const credentials = sealed(request.credentials)
      const id = randomUUID()
      const source = await insertSource(deps.pool, {
        id,
        name: request.name,
        kind: request.kind,
        collection: request.collection,
        settings: request.settings,
        credentials,
        intervalSeconds: request.intervalMinutes === null ? null : request.intervalMinutes * 60,
        createdBy: principal.name,
      }).catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505')
          throw new HttpError(
            409,
            `a source named ${JSON.stringify(request.name)} exists in the collection ${JSON.stringify(request.collection)}`,
          )
        throw error
      })
      await requestSync(deps.producer, id, `added by ${principal.name}`)
      c.header('Location', `/sources/${id}`)
      return c.json(apiSource(source, undefined), 201)
    })
    .openapi(listRoute, async (c) => {
      const principal = principalOf(c)
      const sources = await listSources(deps.pool, principal.collections)
      const syncs = await latestSyncs(
        deps.pool,
        sources.map((source) => source.id),
      )
      return c.json({ sources: sources.map((source) => apiSource(source, syncs.get(source.id))) }, 200)
    })
    .openapi(getRoute, async (c) => {
      const source = await visible(c, c.req.valid('param').id)
      return c.json(apiSource(source, (await latestSyncs(deps.pool, [source.id])).get(source.id)), 200)
    })
    .openapi(syncsRoute, async (c) => {
      const source = await visible(c, c.req.valid('param').id)
      return c.json({ syncs: (await recentSyncs(deps.pool, source.id)).map(apiSync) }, 200)
    })
    .openapi(syncRoute, async (c) => {
      const source = await visible(c, c.req.valid('param').id)
      const syncId = await requestSync(deps.producer, source.id, `asked by ${principalOf(c).name}`)
      return c.json({ syncId }, 202)
    })
    .openapi(changeRoute, async (c) => {
      const source = await visible(c, c.req.valid('param').id)
      const change = c.req.valid('json')
      const principal = principalOf(c)
      const schema = sourceRequestSchemaByKind[source.kind].shape
      const settings =
        change.settings === undefined ? undefined : checked(schema.settings, change.settings, 'settings')
      if (settings && principal.role !== 'admin' && placeIsPrivate(source.kind, settings, deps.privateHosts))
        throw new HttpError(
          403,
          'a source on this machine (a local path) or on a private address is added by an admin only',
        )
      const credentials =
        change.credentials === undefined
          ? undefined
          : sealed(
              change.credentials &&
                (checked(schema.credentials, change.credentials, 'credentials') as Record<string, string>),
            )
      // (A misspelt field would otherwise clear them: null says "none", an object must hold some.)
      if (change.credentials && credentials === null)
        throw new HttpError(
          400,
          `credentials: none of a ${source.kind} source's (${Object.keys(schema.credentials.unwrap().shape).join(', ')}); null removes them`,
          { field: 'credentials' },
        )
      const updated = await updateSource(deps.pool, source.id, {
        ...(settings ? { settings } : {}),
        ...(credentials !== undefined ? { credentials } : {}),
        ...(change.intervalMinutes !== undefined
          ? { intervalSeconds: change.intervalMinutes === null ? null : change.intervalMinutes * 60 }
          : {}),
      })
      if (!updated) throw new HttpError(404, `no source ${source.id}`)
      // A new place or new credentials: synced now, so the change shows (or its refusal does).
      const syncId =
        settings || credentials !== undefined
          ? await requestSync(deps.producer, source.id, `changed by ${principal.name}`)
          : null
      return c.json(
        { ...apiSource(updated, (await latestSyncs(deps.pool, [source.id])).get(source.id)), syncId },
        200,
      )
    })
    .openapi(removeRoute, async (c) => {
      const source = await visible(c, c.req.valid('param').id)
      const documents = await removeSource(deps.pool, source.id)
      if (documents === null) throw new HttpError(404, `no source ${source.id}`)
      for (const documentId of documents) await deleteDocument(deps, documentId)
      return c.body(null, 204)
    })
}

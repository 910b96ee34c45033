import { OpenAPIHono, z } from '@hono/zod-openapi'
import {
  AUDIT_ACTIONS,
  createApiKey,
  listApiKeys,
  listAudit,
  revokeApiKey,
  unknownCollections,
} from '@rag/access'
import {
  auditPageSchema,
  createdKeySchema,
  createKeyRequestSchema,
  grantedCollections,
  isoDateTime,
  keyListSchema,
} from '@rag/api-contract'
import type { Pool } from '@rag/db'
import { HttpError } from '../http-error.ts'
import {
  commonErrors,
  crossSiteErrors,
  errorResponse,
  jsonBody,
  jsonChangeErrors,
  uuidParam,
} from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import { principalOf } from './api-key.ts'
import { unknownCollectionMessage } from './collection-access.ts'
import type { Revocations } from './revocations.ts'
import { defineRoute } from './route-policy.ts'

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})

const createKeyRoute = defineRoute(
  {
    method: 'post',
    path: '/keys',
    operationId: 'createKey',
    tags: ['access'],
    summary: 'Make an API key with a role and collections (admin); the key is in this answer only',
    request: {
      body: jsonBody(createKeyRequestSchema),
    },
    responses: {
      201: json(createdKeySchema, 'The key, shown once'),
      ...jsonChangeErrors,
    },
  },
  { role: 'admin', audit: 'key.create' },
)
const listKeysRoute = defineRoute(
  {
    method: 'get',
    path: '/keys',
    operationId: 'listKeys',
    tags: ['access'],
    summary: 'Every key of the table, revoked ones too (admin); never the keys themselves',
    responses: { 200: json(keyListSchema, 'Keys'), ...commonErrors },
  },
  { role: 'admin' },
)
const revokeKeyRoute = defineRoute(
  {
    method: 'delete',
    path: '/keys/{id}',
    operationId: 'revokeKey',
    tags: ['access'],
    summary: 'Revoke a key (admin): refused from its next request on',
    request: { params: z.object({ id: uuidParam('id', 'The key') }) },
    responses: {
      200: json(createdKeySchema.omit({ key: true }), 'The revoked key'),
      ...commonErrors,
      ...crossSiteErrors,
      404: errorResponse('No such key'),
    },
  },
  { role: 'admin', audit: 'key.revoke' },
)
const auditRoute = defineRoute(
  {
    method: 'get',
    path: '/audit',
    operationId: 'listAudit',
    tags: ['access'],
    summary:
      'Who uploaded, deleted, re-indexed, asked, signed in, made or revoked a key (admin), newest first',
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(500).default(100),
        before: z
          .string()
          .regex(/^\d+$/, 'expected the `next` of the previous page')
          .optional()
          .openapi({ description: 'The `next` of the previous page' }),
        actor: z.string().max(200).optional().openapi({ example: 'bootstrap' }),
        action: z.enum(AUDIT_ACTIONS).optional(),
        since: isoDateTime().optional(),
      }),
    },
    responses: { 200: json(auditPageSchema, 'A page of entries'), ...commonErrors },
  },
  { role: 'admin' },
)

/** Key management and the audit log: admins only (their definitions). */
export function keyRoutes(deps: { pool: Pool; revocations?: Revocations }) {
  return new OpenAPIHono({ defaultHook: validationHook })
    .openapi(createKeyRoute, async (c) => {
      const request = c.req.valid('json')
      const collections = grantedCollections(request.collections)
      // A key for a misspelt collection would be a key to nothing, silently.
      const [unknown] = await unknownCollections(deps.pool, collections ?? [])
      if (unknown !== undefined)
        throw new HttpError(400, `collections: ${unknownCollectionMessage(unknown)}`, {
          field: 'collections',
        })
      const { key, record } = await createApiKey(deps.pool, {
        name: request.name,
        role: request.role,
        collections,
        createdBy: principalOf(c).id,
      })
      c.header('Location', `/keys/${record.id}`)
      return c.json({ ...record, key }, 201)
    })
    .openapi(listKeysRoute, async (c) => c.json({ keys: await listApiKeys(deps.pool) }, 200))
    .openapi(revokeKeyRoute, async (c) => {
      const revoked = await revokeApiKey(deps.pool, c.req.valid('param').id)
      if (!revoked) throw new HttpError(404, 'no such key')
      // Its open streams and MCP calls end now, on every replica.
      await deps.revocations?.announce(`key:${revoked.id}`)
      return c.json(revoked, 200)
    })
    .openapi(auditRoute, async (c) => {
      const query = c.req.valid('query')
      const entries = await listAudit(deps.pool, {
        limit: query.limit,
        before: query.before,
        actor: query.actor,
        action: query.action,
        since: query.since ? new Date(query.since) : undefined,
      })
      return c.json(
        { entries, next: entries.length === query.limit ? (entries.at(-1)?.id ?? null) : null },
        200,
      )
    })
}

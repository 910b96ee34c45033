import { z } from '@hono/zod-openapi'
import { SOURCE_KINDS, SOURCE_SYNC_STATUSES } from './enums.ts'

// Sources (packages/sources): a place kept in sync with a collection. Settings say where; the
// credentials are write-only (sealed at rest, never returned).

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), { message: 'must be an http(s) URL' })

const secret = z.string().min(1).max(20_000)

const common = {
  name: z
    .string()
    .trim()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
      'letters, digits, ".", "_" and "-" (a folder name: its documents are named under it)',
    )
    .openapi({ example: 'manuals' }),
  collection: z.string().trim().min(1).max(200).openapi({ example: 'support' }),
  intervalMinutes: z
    .number()
    .int()
    .min(1)
    .max(525_600)
    .nullable()
    .default(null)
    .openapi({ description: 'Minutes between scheduled syncs; null: only when asked' }),
}

export const webdavSourceRequestSchema = z.object({
  ...common,
  kind: z.literal('webdav'),
  settings: z.object({
    url: httpUrl.openapi({ example: 'https://cloud.example.com/remote.php/dav/files/team/Manuals/' }),
  }),
  credentials: z.object({ username: z.string().max(500).optional(), password: secret.optional() }).optional(),
})

export const s3SourceRequestSchema = z.object({
  ...common,
  kind: z.literal('s3'),
  settings: z.object({
    bucket: z.string().trim().min(1).max(255),
    prefix: z.string().max(1024).optional(),
    region: z.string().max(100).optional(),
    endpoint: httpUrl.optional().openapi({ description: 'An S3-compatible service (MinIO, R2…): its URL' }),
    forcePathStyle: z.boolean().optional(),
  }),
  credentials: z
    .object({
      accessKeyId: z.string().max(500).optional(),
      secretAccessKey: secret.optional(),
      sessionToken: secret.optional(),
    })
    .optional(),
})

export const gitSourceRequestSchema = z.object({
  ...common,
  kind: z.literal('git'),
  settings: z.object({
    url: z.string().trim().min(1).max(2000).openapi({ example: 'https://github.com/acme/manuals.git' }),
    ref: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9._/-]{1,200}$/, 'a branch or tag name')
      .refine((ref) => !ref.startsWith('-') && !ref.includes('..'), 'a branch or tag name')
      .optional(),
    path: z
      .string()
      .trim()
      .max(1000)
      .refine(
        (path) => !path.startsWith('-') && !path.split('/').includes('..'),
        'a folder of the repository',
      )
      .optional(),
  }),
  credentials: z.object({ token: secret.optional(), sshKey: secret.optional() }).optional(),
})

export const webSourceRequestSchema = z.object({
  ...common,
  kind: z.literal('web'),
  settings: z.object({
    url: httpUrl.openapi({
      description: 'The start page, or a sitemap (a URL ending .xml or .xml.gz)',
      example: 'https://intranet.example.com/handbook/',
    }),
    depth: z.number().int().min(0).max(10).optional().openapi({
      description: 'Links followed from the start page (default 3) or from the sitemap’s pages (default 0)',
    }),
  }),
  credentials: z
    .object({
      username: z.string().max(500).optional(),
      password: secret.optional(),
      token: secret.optional(),
    })
    .optional()
    .openapi({ description: 'Basic (username, password) or Bearer (token), sent to the site only' }),
})

export const sourceRequestSchema = z
  .discriminatedUnion('kind', [
    webdavSourceRequestSchema,
    s3SourceRequestSchema,
    gitSourceRequestSchema,
    webSourceRequestSchema,
  ])
  .openapi('SourceRequest')
export type SourceRequest = z.infer<typeof sourceRequestSchema>

/** Each kind's request: what its settings and credentials may be (a change is checked against them). */
export const sourceRequestSchemaByKind = {
  webdav: webdavSourceRequestSchema,
  s3: s3SourceRequestSchema,
  git: gitSourceRequestSchema,
  web: webSourceRequestSchema,
} as const

export const sourceChangeSchema = z
  .object({
    settings: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "The source's settings, whole (those of its kind, as when it was added): a place changed is synced as the new place",
    }),
    credentials: z.record(z.string(), z.string().max(20_000)).nullable().optional().openapi({
      description: 'New credentials, whole (those of its kind), sealed like the first; null: none any more',
    }),
    intervalMinutes: common.intervalMinutes.removeDefault().optional(),
  })
  .refine((change) => Object.keys(change).length > 0, {
    message: 'nothing to change: give settings, credentials or intervalMinutes',
  })
  .openapi('SourceChange')
export type SourceChange = z.infer<typeof sourceChangeSchema>

export const sourceSyncSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(SOURCE_SYNC_STATUSES),
    trigger: z.string(),
    seen: z.number().int(),
    added: z.number().int(),
    changed: z.number().int(),
    unchanged: z.number().int(),
    deleted: z.number().int(),
    failed: z.number().int(),
    ignored: z.number().int().openapi({ description: 'Files of types no parser reads (not failures)' }),
    failures: z.array(z.object({ key: z.string(), reason: z.string() })),
    error: z.string().nullable(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi('SourceSync')
export type ApiSourceSync = z.infer<typeof sourceSyncSchema>

export const sourceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(SOURCE_KINDS),
    collection: z.string(),
    settings: z.record(z.string(), z.unknown()),
    hasCredentials: z.boolean().openapi({ description: 'Credentials are stored (never shown)' }),
    intervalMinutes: z.number().int().nullable(),
    nextSyncAt: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    lastSync: sourceSyncSchema.nullable(),
  })
  .openapi('Source')
export type ApiSource = z.infer<typeof sourceSchema>

export const sourceChangedSchema = sourceSchema
  .extend({
    syncId: z.uuid().nullable().openapi({
      description: 'The sync the change started (new settings or credentials); null when none was needed',
    }),
  })
  .openapi('SourceChanged')
export type ApiSourceChanged = z.infer<typeof sourceChangedSchema>

export const sourceListSchema = z.object({ sources: z.array(sourceSchema) }).openapi('SourceList')
export const sourceSyncListSchema = z.object({ syncs: z.array(sourceSyncSchema) }).openapi('SourceSyncList')
export const sourceSyncStartedSchema = z
  .object({
    syncId: z
      .uuid()
      .openapi({ description: 'The sync that will run (the one already waiting or running, if any)' }),
  })
  .openapi('SourceSyncStarted')

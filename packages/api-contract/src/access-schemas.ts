import { z } from '@hono/zod-openapi'
import { ROLES } from './enums.ts'

// Keys and the audit log, as the API shows them (packages/access keeps them).

const collectionName = z.string().trim().min(1).max(200)

/** What names every collection in a list of grants (as OIDC_GROUP_GRANTS writes it): never a collection's name. */
export const ALL_COLLECTIONS = '*'

export const createKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: 'hr-assistant' }),
    role: z.enum(ROLES).openapi({ description: 'reader, editor or admin' }),
    collections: z.array(collectionName).max(1000).nullable().default(null).openapi({
      description:
        'The collections it may see; null, absent or ["*"]: all. An admin sees all: naming collections for one is refused',
    }),
  })
  .superRefine((request, context) => {
    const all = request.collections?.includes(ALL_COLLECTIONS) ?? false
    if (all && (request.collections?.length ?? 0) > 1)
      context.addIssue({
        code: 'custom',
        path: ['collections'],
        message: '"*" means every collection: give it alone, or name the collections without it',
      })
    if (request.role === 'admin' && request.collections !== null && !all)
      context.addIssue({
        code: 'custom',
        path: ['collections'],
        message:
          'an admin sees every collection (keys, audit, re-indexing everything): give a reader or editor role to limit it to collections',
      })
  })
  .openapi('CreateKeyRequest')

/** A key request's collections as stored: null for every one ("*", or none named). */
export const grantedCollections = (collections: string[] | null): string[] | null =>
  collections === null || collections.includes(ALL_COLLECTIONS) ? null : collections

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    collections: z.array(z.string()).nullable(),
    prefix: z.string().openapi({ description: 'The first characters, to tell keys apart' }),
    createdBy: z.string(),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
  })
  .openapi('ApiKey')

export const createdKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: 'The key itself: shown this once, stored only hashed' }) })
  .openapi('CreatedKey')

export const keyListSchema = z.object({ keys: z.array(apiKeySchema) }).openapi('KeyList')

export const auditEntrySchema = z
  .object({
    id: z.string(),
    at: z.string(),
    actor: z.string().openapi({ description: 'key:<id>, bootstrap (API_KEY), local; never a key' }),
    role: z.string(),
    action: z.string().openapi({ example: 'upload' }),
    target: z.string().nullable(),
    collection: z.string().nullable(),
    address: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()),
  })
  .openapi('AuditEntry')

export const auditPageSchema = z
  .object({
    entries: z.array(auditEntrySchema),
    next: z.string().nullable().openapi({ description: 'Pass as `before` for the next (older) page' }),
  })
  .openapi('AuditPage')

export const sessionSchema = z
  .object({
    keyRequired: z
      .boolean()
      .openapi({ description: 'Whether this gateway asks for an API key or a sign-in' }),
    authenticated: z
      .boolean()
      .openapi({ description: 'Whether this request presented a valid key or session' }),
    principal: z
      .object({
        name: z.string(),
        role: z.enum(ROLES),
        collections: z.array(z.string()).nullable().openapi({ description: 'null: every collection' }),
        kind: z.enum(['key', 'person', 'local']),
      })
      .nullable()
      .openapi({ description: 'Who this request acts as (null: nobody yet)' }),
    session: z.string().nullable().openapi({
      description:
        "The id of this browser's sign-in (not a secret; null: none). The web app sends it back as `X-Rag-Session` with every request, so a cookie replaced by another site on this host is refused",
    }),
    singleSignOn: z
      .object({
        provider: z.string().openapi({ description: 'The name on the sign-in button' }),
        url: z.string().openapi({ example: '/auth/oidc/login' }),
        reachable: z.boolean(),
        problem: z.string().nullable().openapi({ description: 'Why it cannot be used now (provider down)' }),
      })
      .nullable()
      .openapi({ description: 'Single sign-on (OpenID Connect), when configured' }),
  })
  .openapi('Session')

export const userSessionSchema = z
  .object({
    id: z.string(),
    subject: z.string().openapi({ description: "The provider's host and the person's subject" }),
    name: z.string(),
    role: z.enum(ROLES),
    collections: z.array(z.string()).nullable(),
    groups: z.array(z.string()).openapi({ description: 'The claim values mapped at sign-in' }),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .openapi('UserSession')
export const userSessionListSchema = z
  .object({ sessions: z.array(userSessionSchema) })
  .openapi('UserSessionList')

export type ApiSession = z.output<typeof sessionSchema>
export type ApiUserSession = z.output<typeof userSessionSchema>
export type ApiKey = z.output<typeof apiKeySchema>
export type ApiCreatedKey = z.output<typeof createdKeySchema>
export type ApiAuditPage = z.output<typeof auditPageSchema>

export const collectionSynonymsSchema = z
  .object({
    collection: z.string(),
    rules: z.string().openapi({
      description: "The collection's own synonyms in Solr's format, one rule a line",
      example: '有休, 年次有給休暇\nPTO => 年次有給休暇',
    }),
    ruleCount: z.number().int(),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable(),
  })
  .openapi('CollectionSynonyms')

export const collectionSynonymsRequestSchema = z
  .object({
    rules: z
      .string()
      .max(1 << 20)
      .openapi({
        description:
          'Solr synonyms: `a, b, c` (each brings in the others) or `a, b => c` (one way), `#` comments; at most 1 MiB',
        example: '有休, 年次有給休暇\nPTO => 年次有給休暇',
      }),
  })
  .strict()
  .openapi('CollectionSynonymsRequest')
export type ApiCollectionSynonyms = z.output<typeof collectionSynonymsSchema>

const heldOutFiguresSchema = z.object({
  accuracy: z.number(),
  falseRefusalRate: z.number(),
  refusedUnanswerable: z.number(),
})

export const calibrationSchema = z
  .object({
    collection: z.string(),
    report: z
      .object({
        questions: z.number().int(),
        answerable: z.number().int(),
        unanswerable: z.number().int(),
        folds: z.number().int(),
        before: heldOutFiguresSchema.openapi({ description: 'The shipped judgement on these questions' }),
        after: heldOutFiguresSchema.openapi({
          description:
            "The collection's own judgement, each question judged by a fit that did not see it (cross-validated)",
        }),
      })
      .nullable(),
    model: z
      .object({ features: z.array(z.string()), weights: z.array(z.number()), bias: z.number() })
      .nullable()
      .openapi({ description: 'The weights over the answerability signals (inspectable)' }),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable(),
  })
  .openapi('Calibration')

export const calibrationRequestSchema = z
  .object({
    questions: z
      .array(
        z
          .object({
            question: z.string().trim().min(1).max(2000),
            source: z.string().min(1).max(1000).nullable().openapi({
              description:
                'The source id that answers it (faq.csv:r12), or null: the documents hold no answer',
            }),
          })
          .strict(),
      )
      .min(1)
      .max(2000),
  })
  .strict()
  .openapi('CalibrationRequest')

export type ApiCalibration = z.output<typeof calibrationSchema>

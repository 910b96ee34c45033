import { z } from '@hono/zod-openapi'
import { ALL_COLLECTIONS } from './access-schemas.ts'
import { MAX_COLLECTION_CHARS } from './limits.ts'

// Collections, as the API lists and creates them (packages/access keeps them).

export const collectionSchema = z
  .object({
    name: z.string(),
    createdAt: z.string(),
    documents: z.number().int().openapi({ description: 'Documents it holds, in any status' }),
  })
  .openapi('Collection')

export const collectionListSchema = z
  .object({ collections: z.array(collectionSchema) })
  .openapi('CollectionList')

/** POST /collections: a collection begun before its first document, for its keys, sources and synonyms. */
export const createCollectionRequestSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(MAX_COLLECTION_CHARS)
      .refine(
        (name) => name !== ALL_COLLECTIONS,
        `"${ALL_COLLECTIONS}" means every collection: it cannot name one`,
      )
      .openapi({ example: 'hr' }),
  })
  .strict()
export type CreateCollectionRequest = z.input<typeof createCollectionRequestSchema>
export type ApiCollection = z.output<typeof collectionSchema>

import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi'
import {
  DOCUMENT_STATUSES,
  type DocumentRecord,
  deleteDocument,
  documentSections,
  getDocument,
  type IngestDeps,
  listDocuments,
  type RegisterOptions,
  registerDocument,
  requeueDocument,
  UploadRejectedError,
} from '@rag/ingest'
import { SOURCE_TYPES } from '@rag/parsers'
import { parseJob } from '@rag/queue'
import { bodyLimit } from 'hono/body-limit'
import { HttpError } from '../http-error.ts'
import { commonErrors, errorResponse, uuidParam } from '../openapi/common-schemas.ts'
import { validationHook } from '../openapi/validation-hook.ts'

export interface DocumentRoutesOptions extends RegisterOptions {
  maxFiles: number
}

const listQuery = z.object({
  collection: z.string().min(1).max(200).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})
const idParams = z.object({ id: uuidParam('id', 'The document') })

export const documentSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    filename: z.string(),
    type: z.enum(SOURCE_TYPES),
    status: z.enum(DOCUMENT_STATUSES),
    stage: z
      .enum(DOCUMENT_STATUSES)
      .nullable()
      .openapi({ description: 'The stage working on it, null when done' }),
    progress: z.number().openapi({ description: 'Share of its parts stored, 0..1' }),
    chunkCount: z.number(),
    sizeBytes: z.number(),
    tags: z.array(z.string()),
    error: z.string().nullable().openapi({ description: 'Why it failed' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Document')

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})
const notFound = { 404: errorResponse('No such document') }

const uploadRoute = createRoute({
  method: 'post',
  path: '/documents',
  tags: ['documents'],
  summary: 'Upload files (multipart fields "file" or "files"); each is parsed, chunked, embedded, stored',
  request: {
    body: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: z.object({
            files: z.array(z.string().openapi({ format: 'binary' })),
            collection: z.string().optional(),
            tags: z.string().optional().openapi({ description: 'Comma-separated' }),
          }),
        },
      },
    },
  },
  responses: {
    202: json(
      z.object({
        documents: z.array(documentSchema.extend({ action: z.string() })),
        rejected: z.array(z.object({ filename: z.string(), status: z.number(), error: z.string() })),
      }),
      'Accepted files (and the reasons for any refused)',
    ),
    ...commonErrors,
    413: errorResponse('Too large, or too many files'),
    415: errorResponse('Not multipart/form-data, or an unsupported file type'),
  },
})
const listRoute = createRoute({
  method: 'get',
  path: '/documents',
  tags: ['documents'],
  summary: 'Documents, newest first, with status and progress',
  request: { query: listQuery },
  responses: {
    200: json(z.object({ documents: z.array(documentSchema) }), 'The documents'),
    ...commonErrors,
  },
})
const getRoute = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags: ['documents'],
  summary: 'One document',
  request: { params: idParams },
  responses: { 200: json(documentSchema, 'The document'), ...commonErrors, ...notFound },
})
const sectionsRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/sections',
  tags: ['documents'],
  summary: 'The text as indexed, by page / row / section, each with the source id answers cite',
  request: { params: idParams },
  responses: {
    200: json(
      z.object({
        id: z.string(),
        filename: z.string(),
        status: z.enum(DOCUMENT_STATUSES),
        sections: z.array(
          z.object({ sourceId: z.string(), heading: z.string().nullable(), text: z.string() }),
        ),
      }),
      'The sections in order',
    ),
    ...commonErrors,
    ...notFound,
  },
})
const deleteRoute = createRoute({
  method: 'delete',
  path: '/documents/{id}',
  tags: ['documents'],
  summary: 'Delete a document, its file and its chunks',
  request: { params: idParams },
  responses: { 204: { description: 'Deleted' }, ...commonErrors, ...notFound },
})
const reindexRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/reindex',
  tags: ['documents'],
  summary: 'Parse, chunk and embed a document again',
  request: { params: idParams },
  responses: {
    202: json(z.object({ id: z.string(), status: z.literal('queued') }), 'Queued'),
    ...commonErrors,
    ...notFound,
  },
})
const reindexAllRoute = createRoute({
  method: 'post',
  path: '/reindex',
  tags: ['documents'],
  summary: 'Every document again (after changing chunking or the embedding model)',
  responses: { 202: json(z.object({ queued: z.number() }), 'How many were queued'), ...commonErrors },
})

/** What clients see of a document (no server paths). */
export function documentView(document: DocumentRecord) {
  return {
    id: document.id,
    collection: document.collection,
    filename: document.filename,
    type: document.sourceType,
    status: document.status,
    stage: document.status === 'ready' || document.status === 'failed' ? null : document.status,
    progress: document.progress,
    chunkCount: document.chunkCount,
    sizeBytes: document.sizeBytes,
    tags: document.tags,
    error: document.error,
    createdAt: document.createdAt.toISOString(),
    updatedAt: document.updatedAt.toISOString(),
  }
}

export function documentRoutes(deps: IngestDeps, options: DocumentRoutesOptions) {
  const limit = options.maxBytes * options.maxFiles + 1024 * 1024
  const app = new OpenAPIHono({ defaultHook: validationHook })
  // Declared for the spec only: the files are read and refused one by one in the handler.
  app.openAPIRegistry.registerPath(uploadRoute)
  app.post(
    '/documents',
    bodyLimit({
      maxSize: limit,
      onError: () => {
        throw new HttpError(413, `upload larger than ${limit} bytes (UPLOAD_MAX_BYTES × UPLOAD_MAX_FILES)`)
      },
    }),
    async (c) => {
      if (!c.req.header('content-type')?.startsWith('multipart/form-data')) {
        throw new HttpError(415, 'send the files as multipart/form-data, in fields named "file" or "files"')
      }
      const body = await c.req.parseBody({ all: true }).catch((error: unknown) => {
        throw new HttpError(
          400,
          `malformed multipart body: ${error instanceof Error ? error.message : error}`,
        )
      })
      const files = [body.file, body.files].flat().filter((value): value is File => value instanceof File)
      if (files.length === 0) throw new HttpError(400, 'no file in the upload (fields "file" or "files")')
      if (files.length > options.maxFiles) {
        throw new HttpError(413, `${files.length} files in one upload; the limit is ${options.maxFiles}`)
      }
      const collection = typeof body.collection === 'string' ? body.collection.slice(0, 200) : undefined
      const tags =
        typeof body.tags === 'string'
          ? body.tags
              .split(',')
              .map((t) => t.trim())
              .filter(Boolean)
          : undefined
      const accepted: (ReturnType<typeof documentView> & { action: string })[] = []
      const rejected: { filename: string; status: number; error: string }[] = []
      for (const file of files) {
        try {
          const data = new Uint8Array(await file.arrayBuffer())
          const { document, action } = await registerDocument(deps, options, {
            filename: file.name,
            data,
            collection,
            tags,
          })
          accepted.push({ ...documentView(document), action })
        } catch (error) {
          if (!(error instanceof UploadRejectedError)) throw error
          rejected.push({ filename: file.name, status: error.status, error: error.message })
        }
      }
      // Some files taken: 202 with the reasons for the others. None taken: the first reason's status.
      if (accepted.length === 0) {
        const first = rejected[0]
        throw new HttpError((first?.status ?? 400) as 400, first?.error ?? 'nothing accepted', {
          rejected,
        })
      }
      return c.json({ documents: accepted, rejected }, 202)
    },
  )
  return app
    .openapi(listRoute, async (c) => {
      const documents = await listDocuments(deps.pool, c.req.valid('query'))
      return c.json({ documents: documents.map(documentView) }, 200)
    })
    .openapi(getRoute, async (c) => {
      const document = await getDocument(deps.pool, c.req.valid('param').id)
      if (!document) throw new HttpError(404, 'no such document')
      return c.json(documentView(document), 200)
    })
    .openapi(sectionsRoute, async (c) => {
      const { id } = c.req.valid('param')
      const document = await getDocument(deps.pool, id)
      if (!document) throw new HttpError(404, 'no such document')
      return c.json(
        {
          id,
          filename: document.filename,
          status: document.status,
          sections: await documentSections(deps.pool, id),
        },
        200,
      )
    })
    .openapi(deleteRoute, async (c) => {
      if (!(await deleteDocument(deps, c.req.valid('param').id))) throw new HttpError(404, 'no such document')
      return c.body(null, 204)
    })
    .openapi(reindexRoute, async (c) => {
      const { id } = c.req.valid('param')
      const contentHash = await requeueDocument(deps.pool, id)
      if (!contentHash) throw new HttpError(404, 'no such document')
      await deps.producer.enqueueAgain(parseJob, { documentId: id, contentHash })
      return c.json({ id, status: 'queued' as const }, 202)
    })
    .openapi(reindexAllRoute, async (c) => {
      const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM documents ORDER BY created_at')
      for (const { id } of rows) {
        const contentHash = await requeueDocument(deps.pool, id)
        if (contentHash) await deps.producer.enqueueAgain(parseJob, { documentId: id, contentHash })
      }
      return c.json({ queued: rows.length }, 202)
    })
}

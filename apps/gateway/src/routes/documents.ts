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
import { parseJob } from '@rag/queue'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { z } from 'zod'
import { HttpError } from '../http-error.ts'

export interface DocumentRoutesOptions extends RegisterOptions {
  maxFiles: number
}

const uuid = z.uuid()
const listQuery = z.object({
  collection: z.string().min(1).max(200).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
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
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  }
}

function documentId(raw: string): string {
  const parsed = uuid.safeParse(raw)
  if (!parsed.success) throw new HttpError(400, `invalid document id ${JSON.stringify(raw)}: expected a UUID`)
  return parsed.data
}

export function documentRoutes(deps: IngestDeps, options: DocumentRoutesOptions) {
  const limit = options.maxBytes * options.maxFiles + 1024 * 1024
  return (
    new Hono()
      .post(
        '/documents',
        bodyLimit({
          maxSize: limit,
          onError: () => {
            throw new HttpError(
              413,
              `upload larger than ${limit} bytes (UPLOAD_MAX_BYTES × UPLOAD_MAX_FILES)`,
            )
          },
        }),
        async (c) => {
          if (!c.req.header('content-type')?.startsWith('multipart/form-data')) {
            throw new HttpError(
              415,
              'send the files as multipart/form-data, in fields named "file" or "files"',
            )
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
      .get('/documents', async (c) => {
        const query = listQuery.safeParse(c.req.query())
        if (!query.success) {
          const issue = query.error.issues[0]
          throw new HttpError(400, `invalid query parameter ${issue?.path.join('.')}: ${issue?.message}`)
        }
        const documents = await listDocuments(deps.pool, query.data)
        return c.json({ documents: documents.map(documentView) })
      })
      .get('/documents/:id', async (c) => {
        const document = await getDocument(deps.pool, documentId(c.req.param('id')))
        if (!document) throw new HttpError(404, 'no such document')
        return c.json(documentView(document))
      })
      // The text as indexed, by page / row / section, each with the source id answers cite.
      .get('/documents/:id/sections', async (c) => {
        const id = documentId(c.req.param('id'))
        const document = await getDocument(deps.pool, id)
        if (!document) throw new HttpError(404, 'no such document')
        return c.json({
          id,
          filename: document.filename,
          status: document.status,
          sections: await documentSections(deps.pool, id),
        })
      })
      .delete('/documents/:id', async (c) => {
        if (!(await deleteDocument(deps, documentId(c.req.param('id')))))
          throw new HttpError(404, 'no such document')
        return c.body(null, 204)
      })
      .post('/documents/:id/reindex', async (c) => {
        const id = documentId(c.req.param('id'))
        const contentHash = await requeueDocument(deps.pool, id)
        if (!contentHash) throw new HttpError(404, 'no such document')
        await deps.producer.enqueueAgain(parseJob, { documentId: id, contentHash })
        return c.json({ id, status: 'queued' }, 202)
      })
      // Every document again (after changing chunking or the embedding model).
      .post('/reindex', async (c) => {
        const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM documents ORDER BY created_at')
        for (const { id } of rows) {
          const contentHash = await requeueDocument(deps.pool, id)
          if (contentHash) await deps.producer.enqueueAgain(parseJob, { documentId: id, contentHash })
        }
        return c.json({ queued: rows.length }, 202)
      })
  )
}

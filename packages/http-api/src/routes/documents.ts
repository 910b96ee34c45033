import { open } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { Readable } from 'node:stream'
import { OpenAPIHono } from '@hono/zod-openapi'
import { canSee } from '@rag/access'
import { isDocumentFinished, MAX_COLLECTION_CHARS } from '@rag/api-contract'
import {
  type DocumentRecord,
  deleteDocument,
  documentSections,
  type IngestDeps,
  ingestWebPage,
  listDocuments,
  pageImages,
  type RegisterOptions,
  registerDocument,
  reindexDocument,
  UploadRejectedError,
  type WebFetchLimits,
  WebPageError,
} from '@rag/ingest'
import type { Context, MiddlewareHandler } from 'hono'
import { every } from 'hono/combine'
import { principalOf } from '../access/api-key.ts'
import { auditCollection } from '../access/audit-trail.ts'
import { grantedCollectionIfNamed } from '../access/collection-access.ts'
import { HttpError } from '../http-error.ts'
import { readMultipartUpload } from '../multipart-upload.ts'
import { validationHook } from '../openapi/validation-hook.ts'
import {
  deleteRoute,
  fileRoute,
  getRoute,
  ingestUrlRoute,
  listRoute,
  pageImageRoute,
  pageRoute,
  reindexAllRoute,
  reindexRoute,
  sectionsRoute,
  uploadRoute,
} from './document-specs.ts'
import { CONTENT_TYPES, IMAGE_TYPES } from './stored-file-types.ts'
import { visibleDocument } from './visible-document.ts'

export interface DocumentRoutesOptions extends RegisterOptions {
  maxFiles: number
  /** How web pages are fetched (URL_FETCH_*); by default public pages only, 20 s, 5 redirects. */
  webPages?: Omit<WebFetchLimits, 'maxBytes'>
}

const WEB_PAGE_DEFAULTS = { timeoutMs: 20_000, maxRedirects: 5, allowPrivate: false }

/** What an original may do in the browser: a page, Markdown or text is shown, never run. */
const SHOWN_NOT_RUN_POLICY = "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'"
/** A PDF opens in the browser's own viewer (at #page=N); no script of the PDF runs. */
const PDF_POLICY = "default-src 'none'; script-src 'none'; object-src 'none'; frame-ancestors 'self'"

/** A web page fetch's failure as the API's error (its status and message). */
const asHttpError = (error: unknown) =>
  error instanceof WebPageError ? new HttpError(error.status, error.message) : error

/** What clients see of a document (no server paths). */
export function documentView(document: DocumentRecord) {
  return {
    id: document.id,
    collection: document.collection,
    filename: document.filename,
    type: document.sourceType,
    status: document.status,
    stage: isDocumentFinished(document.status) ? null : document.status,
    progress: document.progress,
    chunkCount: document.chunkCount,
    vectorsPending: document.vectorsPending ?? 0,
    ocrPages: document.ocrPages ?? null,
    missingPages: document.missingPages ?? [],
    ocrReadings: document.ocrReadings ?? [],
    sizeBytes: document.sizeBytes,
    tags: document.tags,
    sourceUrl: document.sourceUrl,
    error: document.error,
    createdAt: document.createdAt.toISOString(),
    updatedAt: document.updatedAt.toISOString(),
  }
}

/**
 * The document, when the caller may see its collection: another collection's is 404 as a missing
 * one is (no existence oracle).
 */
/** An upload's collection must be one the caller may write to (its role is checked already). */
function writableCollection(c: Context, collection: string | undefined): void {
  const name = collection?.trim() || 'default'
  auditCollection(c, name)
  if (!canSee(principalOf(c), name))
    throw new HttpError(403, `this key may not add documents to the collection ${JSON.stringify(name)}`)
}

export function documentRoutes(deps: IngestDeps, options: DocumentRoutesOptions) {
  const limit = options.maxBytes * options.maxFiles + 1024 * 1024
  // Pages rendered for a viewer: beside the uploads, bounded in number and in renders at once.
  const pages = pageImages({ cacheDir: join(options.uploadDir, '.page-images') })
  const app = new OpenAPIHono({ defaultHook: validationHook })
  // Declared for the spec (and its access) only: the files are read and refused one by one in the
  // handler, after the route's access (role, upload limit, audit).
  const { middleware: uploadAccess, ...uploadSpec } = uploadRoute
  app.openAPIRegistry.registerPath(uploadSpec)
  app.post('/documents', every(...(uploadAccess as MiddlewareHandler[])), async (c) => {
    if (!c.req.header('content-type')?.startsWith('multipart/form-data')) {
      throw new HttpError(415, 'send the files as multipart/form-data, in fields named "file" or "files"')
    }
    const declared = Number(c.req.header('content-length'))
    if (declared > limit) {
      throw new HttpError(413, `upload larger than ${limit} bytes (UPLOAD_MAX_BYTES × UPLOAD_MAX_FILES)`)
    }
    const upload = await readMultipartUpload(c.req.raw.body, Object.fromEntries(c.req.raw.headers), {
      spoolDir: join(options.uploadDir, '.incoming'),
      maxBytes: options.maxBytes,
      maxFiles: options.maxFiles,
    })
    try {
      if (upload.files.length === 0)
        throw new HttpError(400, 'no file in the upload (fields "file" or "files")')
      const { collection: rawCollection, tags: rawTags } = upload.fields
      const collection = rawCollection?.slice(0, MAX_COLLECTION_CHARS)
      writableCollection(c, collection)
      const tags = rawTags
        ?.split(',')
        .map((t) => t.trim())
        .filter(Boolean)
      const accepted: (ReturnType<typeof documentView> & { action: string })[] = []
      const rejected: { filename: string; status: number; error: string }[] = []
      // One file at a time, each moved from the spool into place: no file is read into memory.
      for (const file of upload.files) {
        try {
          const { document, action } = await registerDocument(deps, options, {
            filename: file.filename,
            spooled: file.path,
            collection,
            tags,
          })
          accepted.push({ ...documentView(document), action })
        } catch (error) {
          if (!(error instanceof UploadRejectedError)) throw error
          rejected.push({ filename: file.filename, status: error.status, error: error.message })
        }
      }
      // Some files taken: 202 with the reasons for the others. None taken: the first reason's status.
      if (accepted.length === 0) {
        const first = rejected[0]
        throw new HttpError((first?.status ?? 400) as 400, first?.error ?? 'nothing accepted', { rejected })
      }
      return c.json({ documents: accepted, rejected }, 202)
    } finally {
      await upload.cleanUp()
    }
  })
  return app
    .openapi(listRoute, async (c) => {
      const query = c.req.valid('query')
      await grantedCollectionIfNamed(c, deps.pool, query.collection)
      const documents = await listDocuments(deps.pool, {
        ...query,
        within: principalOf(c).collections,
      })
      return c.json({ documents: documents.map(documentView) }, 200)
    })
    .openapi(getRoute, async (c) => {
      const document = await visibleDocument(deps, c, c.req.valid('param').id)
      return c.json(documentView(document), 200)
    })
    .openapi(sectionsRoute, async (c) => {
      const { id } = c.req.valid('param')
      const { limit, offset: asked, around } = c.req.valid('query')
      const document = await visibleDocument(deps, c, id)
      const { sections, total, offset } = await documentSections(deps.pool, id, {
        limit,
        offset: asked,
        around,
      })
      const following = offset + sections.length
      return c.json(
        {
          id,
          filename: document.filename,
          status: document.status,
          total,
          offset,
          next: following < total ? `/documents/${id}/sections?offset=${following}&limit=${limit}` : null,
          sections,
        },
        200,
      )
    })
    .openapi(deleteRoute, async (c) => {
      await visibleDocument(deps, c, c.req.valid('param').id)
      if (!(await deleteDocument(deps, c.req.valid('param').id))) throw new HttpError(404, 'no such document')
      return c.body(null, 204)
    })
    .openapi(ingestUrlRoute, async (c) => {
      const { url, collection } = c.req.valid('json')
      writableCollection(c, collection)
      try {
        const { document, action } = await ingestWebPage(
          deps,
          { ...options, webPages: options.webPages ?? WEB_PAGE_DEFAULTS },
          {
            url,
            collection,
          },
        )
        return c.json({ documents: [{ ...documentView(document), action }], rejected: [] }, 202)
      } catch (error) {
        if (error instanceof UploadRejectedError) throw new HttpError(error.status, error.message)
        throw asHttpError(error)
      }
    })
    .openapi(fileRoute, async (c) => {
      const document = await visibleDocument(deps, c, c.req.valid('param').id)
      // Opened now (a missing file is a 404, not a broken stream), then streamed with back-pressure:
      // a 49 MB original read whole per request would cost the gateway 49 MB per download.
      const file = await open(document.storedPath).catch(() => {
        throw new HttpError(404, 'the stored original of this document is gone')
      })
      const { size } = await file.stat()
      const type =
        IMAGE_TYPES[extname(document.storedPath).toLowerCase()] ?? CONTENT_TYPES[document.sourceType]
      const name = document.sourceUrl ? 'page.html' : basename(document.filename)
      // PDFs and pictures open in the browser (a PDF at #page=N); the rest is downloaded.
      const inline = document.sourceType === 'pdf' || document.sourceType === 'image'
      c.header('Content-Type', type ?? 'application/octet-stream')
      c.header(
        'Content-Disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      c.header('X-Content-Type-Options', 'nosniff')
      // A stored page is shown, never run: no script of someone else's site on this origin. A PDF
      // is not sandboxed (Chrome and Edge show a blank viewer then), and runs no script either.
      c.header('Content-Security-Policy', document.sourceType === 'pdf' ? PDF_POLICY : SHOWN_NOT_RUN_POLICY)
      c.header('Content-Length', String(size))
      return c.body(Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>, 200)
    })
    .openapi(pageRoute, async (c) => {
      const { id, page } = c.req.valid('param')
      const found = await pages.info(await visibleDocument(deps, c, id), page)
      if (!found) throw new HttpError(404, `no page ${page} of a PDF in this document`)
      return c.json(found, 200)
    })
    .openapi(pageImageRoute, async (c) => {
      const { id, page } = c.req.valid('param')
      const document = await visibleDocument(deps, c, id)
      const path = await pages.image(document, page, c.req.valid('query').width).catch((error: unknown) => {
        throw new HttpError(
          422,
          `page ${page} could not be shown: ${error instanceof Error ? error.message : error}`,
        )
      })
      if (!path) throw new HttpError(404, `no page ${page} of a PDF in this document`)
      const file = await open(path)
      const { size } = await file.stat()
      c.header('Content-Type', 'image/png')
      c.header('Content-Length', String(size))
      // The picture of a version never changes (a new version is another file name).
      c.header('Cache-Control', 'private, max-age=86400')
      return c.body(Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>, 200)
    })
    .openapi(reindexRoute, async (c) => {
      const { id } = c.req.valid('param')
      const current = await visibleDocument(deps, c, id)
      // A web page is fetched again: changed, it is ingested anew (the old version serves meanwhile).
      if (current.sourceUrl) {
        const fetched = await ingestWebPage(
          deps,
          { ...options, webPages: options.webPages ?? WEB_PAGE_DEFAULTS },
          {
            url: current.sourceUrl,
            collection: current.collection,
          },
        ).catch((error: unknown) => {
          throw asHttpError(error)
        })
        if (fetched.action !== 'unchanged') return c.json({ id, status: 'queued' as const }, 202)
      }
      if (!(await reindexDocument(deps, id))) throw new HttpError(404, 'no such document')
      return c.json({ id, status: 'queued' as const }, 202)
    })
    .openapi(reindexAllRoute, async (c) => {
      const { rows } = await deps.pool.query<{ id: string }>('SELECT id FROM documents ORDER BY created_at')
      for (const { id } of rows) await reindexDocument(deps, id, { everything: true })
      return c.json({ queued: rows.length }, 202)
    })
}

import { z } from '@hono/zod-openapi'
import {
  documentListQuerySchema,
  documentListSchema,
  documentSchema,
  ingestUrlRequestSchema,
  MAX_COLLECTION_CHARS,
  sectionsPageSchema,
  uploadResultSchema,
} from '@rag/api-contract'
import { defineRoute } from '../access/route-policy.ts'
import {
  commonErrors,
  crossSiteErrors,
  errorResponse,
  readErrors,
  unknownCollectionError,
  uuidParam,
} from '../openapi/common-schemas.ts'
import { STORED_FILE_MEDIA_TYPES } from './stored-file-types.ts'

// The document routes as the OpenAPI spec declares them and the validator checks them.

const idParams = z.object({ id: uuidParam('id', 'The document') })
// A page of sections at a time: a 1,000-page PDF or a 100,000-row CSV is tens of megabytes.
const sectionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
  around: z.string().min(1).max(2000).optional().openapi({
    description:
      'A source id (faq.csv:r12): the page shows it with the two sections before it (offset ignored)',
  }),
})

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
})
const notFound = { 404: errorResponse('No such document') }

export const uploadRoute = defineRoute(
  {
    method: 'post',
    path: '/documents',
    operationId: 'uploadDocuments',
    tags: ['documents'],
    summary: 'Upload files (multipart fields "file" or "files"); each is parsed, chunked, embedded, stored',
    request: {
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: z.object({
              file: z
                .array(z.string().openapi({ format: 'binary' }))
                .openapi({ description: 'One part per file (the field may also be named `files`)' }),
              collection: z.string().max(MAX_COLLECTION_CHARS).optional(),
              tags: z.string().optional().openapi({ description: 'Comma-separated' }),
            }),
          },
        },
      },
    },
    responses: {
      202: json(uploadResultSchema, 'Accepted files (and the reasons for any refused)'),
      ...commonErrors,
      ...crossSiteErrors,
      413: errorResponse('Too large, or too many files'),
      415: errorResponse('Not multipart/form-data, or an unsupported file type'),
      429: errorResponse(
        'Too many uploads a minute (UPLOAD_RATE_PER_MINUTE), or too many wrong keys; see Retry-After',
      ),
      507: errorResponse('No space left to store the file: the message names the folder and what is free'),
    },
  },
  { role: 'editor', limit: 'uploads', audit: 'upload' },
)
export const listRoute = defineRoute(
  {
    method: 'get',
    path: '/documents',
    operationId: 'listDocuments',
    tags: ['documents'],
    summary: 'Documents, newest first, with status and progress',
    request: { query: documentListQuerySchema },
    responses: {
      200: json(documentListSchema, 'The documents'),
      ...commonErrors,
      ...unknownCollectionError,
    },
  },
  { role: 'reader' },
)
export const getRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}',
    operationId: 'getDocument',
    tags: ['documents'],
    summary: 'One document',
    request: { params: idParams },
    responses: { 200: json(documentSchema, 'The document'), ...commonErrors, ...notFound },
  },
  { role: 'reader' },
)
export const sectionsRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}/sections',
    operationId: 'listDocumentSections',
    tags: ['documents'],
    summary:
      'The text as indexed, by page / row / section, each with the source id answers cite; a page at a time (`next` is the following page)',
    request: { params: idParams, query: sectionsQuery },
    responses: {
      200: json(sectionsPageSchema, 'The sections in order'),
      ...commonErrors,
      ...notFound,
    },
  },
  { role: 'reader' },
)
export const deleteRoute = defineRoute(
  {
    method: 'delete',
    path: '/documents/{id}',
    operationId: 'deleteDocument',
    tags: ['documents'],
    summary: 'Delete a document, its file and its chunks',
    request: { params: idParams },
    responses: { 204: { description: 'Deleted' }, ...commonErrors, ...crossSiteErrors, ...notFound },
  },
  { role: 'editor', audit: 'delete' },
)
export const ingestUrlRoute = defineRoute(
  {
    method: 'post',
    path: '/documents/url',
    operationId: 'ingestWebPage',
    tags: ['documents'],
    summary:
      'Fetch a web page and ingest it like an upload (named and cited by its URL; fetched again on re-index)',
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: ingestUrlRequestSchema,
          },
        },
      },
    },
    responses: {
      202: json(uploadResultSchema, 'Accepted: the page as a document'),
      ...commonErrors,
      ...crossSiteErrors,
      413: errorResponse('The page is larger than UPLOAD_MAX_BYTES'),
      415: errorResponse('Not an HTML page, or the body not JSON'),
      429: errorResponse('Too many uploads a minute (UPLOAD_RATE_PER_MINUTE), or too many wrong keys'),
      502: errorResponse('The page cannot be fetched (an error status, too many redirects, unreachable)'),
      504: errorResponse('The page did not arrive within URL_FETCH_TIMEOUT_SECONDS'),
      507: errorResponse('No space left to store the page: the message names the folder and what is free'),
    },
  },
  { role: 'editor', limit: 'uploads', audit: 'upload' },
)

export const fileRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}/file',
    operationId: 'getDocumentFile',
    tags: ['documents'],
    summary: 'The original file as uploaded (a PDF opens at a cited page with #page=N)',
    request: { params: idParams },
    responses: {
      200: {
        description: 'The file, with its content type',
        content: Object.fromEntries(
          STORED_FILE_MEDIA_TYPES.map((type) => [type, { schema: z.string().openapi({ format: 'binary' }) }]),
        ),
      },
      ...commonErrors,
      ...notFound,
    },
  },
  { role: 'reader' },
)

const pageParams = idParams.extend({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .openapi({ param: { name: 'page', in: 'path' }, description: '1-based page', example: 3 }),
})

export const pageRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}/pages/{page}',
    operationId: 'getDocumentPage',
    tags: ['documents'],
    summary: "A PDF page's size in points (what a passage's regions are measured in) and the page count",
    request: { params: pageParams },
    responses: {
      200: json(
        z
          .object({ page: z.number(), pages: z.number(), width: z.number(), height: z.number() })
          .openapi('PageInfo'),
        'The page',
      ),
      ...readErrors('No such document, not a PDF, or no such page'),
    },
  },
  { role: 'reader' },
)

export const pageImageRoute = defineRoute(
  {
    method: 'get',
    path: '/documents/{id}/pages/{page}/image',
    operationId: 'getDocumentPageImage',
    tags: ['documents'],
    summary: 'A PDF page as a picture (rendered on demand, cached), to show a cited passage on',
    request: {
      params: pageParams,
      query: z.object({
        width: z.coerce.number().int().min(100).max(4000).default(800).openapi({
          description: 'Pixels wide; rendered at the nearest of 320, 800 or 1400 at or above it',
        }),
      }),
    },
    responses: {
      200: {
        description: 'The page, PNG',
        content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } },
      },
      ...readErrors('No such document, not a PDF, or no such page'),
    },
  },
  { role: 'reader' },
)

export const reindexRoute = defineRoute(
  {
    method: 'post',
    path: '/documents/{id}/reindex',
    operationId: 'reindexDocument',
    tags: ['documents'],
    summary: 'Parse, chunk and embed a document again (a web page is fetched again first)',
    request: { params: idParams },
    responses: {
      202: json(z.object({ id: z.string(), status: z.literal('queued') }), 'Queued'),
      ...commonErrors,
      ...crossSiteErrors,
      ...notFound,
      413: errorResponse('A web page now larger than UPLOAD_MAX_BYTES'),
      415: errorResponse('A web page that is no longer HTML'),
      502: errorResponse('A web page that cannot be fetched now'),
      504: errorResponse('A web page that did not arrive in time'),
    },
  },
  { role: 'editor', audit: 'reindex' },
)
export const reindexAllRoute = defineRoute(
  {
    method: 'post',
    path: '/reindex',
    operationId: 'reindexAllDocuments',
    tags: ['documents'],
    summary: 'Every document again (after changing chunking or the embedding model); the admin key only',
    responses: {
      202: json(z.object({ queued: z.number() }), 'How many were queued'),
      ...commonErrors,
      403: errorResponse('Not an admin key, or a browser request from another site'),
    },
  },
  { role: 'admin', audit: 'reindex' },
)

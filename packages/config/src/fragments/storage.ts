import { defineFragment } from '../define-config.ts'
import { boolean, integer, text } from '../env-values.ts'

export interface StorageSection {
  dataDir: string
  uploadDir: string
  maxUploadBytes: number
  maxUploadFiles: number
  reconcileAfterMs: number
  sectionsPerPart: number
  /** Web pages ingested by URL (POST /documents/url): how they are fetched. */
  webPages: { timeoutMs: number; maxRedirects: number; allowPrivate: boolean }
}

export const storage = defineFragment({
  shape: {
    // Root of everything the platform writes (embedded database, uploads, inbox).
    DATA_DIR: text('data'),
    // Where uploaded originals are kept, under generated names. Default: DATA_DIR/uploads.
    UPLOAD_DIR: text(''),
    // Largest accepted file.
    UPLOAD_MAX_BYTES: integer(50 * 1024 * 1024, { min: 1 }),
    // Most files in one upload request.
    UPLOAD_MAX_FILES: integer(20, { min: 1, max: 1000 }),
    // A document that has not moved for this long has its next job enqueued again (Redis lost it).
    RECONCILE_AFTER_SECONDS: integer(60, { min: 1, max: 86400 }),
    // Sections (pages, rows, headings) per part: large documents fan out in parts of this size.
    SECTIONS_PER_PART: integer(50, { min: 1, max: 100000 }),
    // A web page ingested by URL must arrive within this time (its size is limited by UPLOAD_MAX_BYTES).
    URL_FETCH_TIMEOUT_SECONDS: integer(20, { min: 1, max: 600 }),
    URL_FETCH_MAX_REDIRECTS: integer(5, { min: 0, max: 20 }),
    // Pages on loopback and private networks (an intranet) may be fetched. Off by default: a URL
    // from a user must not make the server reach what only it can reach (SSRF).
    URL_FETCH_ALLOW_PRIVATE: boolean(false),
  },
  read: (env): StorageSection => ({
    dataDir: env.DATA_DIR,
    uploadDir: env.UPLOAD_DIR || `${env.DATA_DIR}/uploads`,
    maxUploadBytes: env.UPLOAD_MAX_BYTES,
    maxUploadFiles: env.UPLOAD_MAX_FILES,
    reconcileAfterMs: env.RECONCILE_AFTER_SECONDS * 1000,
    sectionsPerPart: env.SECTIONS_PER_PART,
    webPages: {
      timeoutMs: env.URL_FETCH_TIMEOUT_SECONDS * 1000,
      maxRedirects: env.URL_FETCH_MAX_REDIRECTS,
      allowPrivate: env.URL_FETCH_ALLOW_PRIVATE,
    },
  }),
})

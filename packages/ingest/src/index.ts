export { backfillEmbeddings } from './backfill-embeddings.ts'
export { fillEmbeddingCache } from './embedding-cache.ts'
export { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'
export type { IngestDeps } from './ingest-deps.ts'
export { type InProcessIngestion, startInProcessIngestion } from './ingest-in-process.ts'
export { ingestionStages } from './ingestion-stages.ts'
export { reconcileDocuments } from './reconcile-documents.ts'
export {
  deleteDocument,
  type RegisterOptions,
  type RegisterOutcome,
  registerDocument,
  safeFilename,
  safeRelativePath,
  type UploadInput,
  UploadRejectedError,
  uploadedName,
} from './register-document.ts'
export { preparePartRows, storePart } from './repository/chunks.ts'
export type { DocumentVersion, PartRef } from './repository/document-version.ts'
export {
  currentDocument,
  DOCUMENT_STATUSES,
  type DocumentRecord,
  type DocumentSection,
  type DocumentStatus,
  documentSections,
  findDocument,
  getDocument,
  listDocuments,
  requeueDocument,
} from './repository/documents.ts'
export { finalizeDocument } from './repository/finalize-document.ts'
export { reanalyzeKeywordIndex } from './repository/reanalyze-keyword-index.ts'
export { createChunkHandler } from './stages/chunk-stage.ts'
export { createEmbedHandler } from './stages/embed-stage.ts'
export { failDocumentOnFinalFailure } from './stages/fail-document-on-final-error.ts'
export { createParseHandler, type ParseStageOptions } from './stages/parse-stage.ts'
export { createStoreHandler } from './stages/store-stage.ts'
export { textHash } from './text-hash.ts'
export { fetchWebPage, type WebFetchLimits, WebPageError } from './web-page/fetch-web-page.ts'
export { ingestWebPage } from './web-page/ingest-web-page.ts'

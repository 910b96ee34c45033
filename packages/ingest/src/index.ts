export { backfillEmbeddings } from './backfill-embeddings.ts'
export { diskFullMessage, freeBytes, isDiskFull } from './disk-space.ts'
export { fillEmbeddingCache } from './embedding-cache.ts'
export { type PipelineOptions, startIngestionWorkers } from './in-process-workers.ts'
export type { IngestDeps } from './ingest-deps.ts'
export { type InProcessIngestion, startInProcessIngestion } from './ingest-in-process.ts'
export { createIngestionContext, type IngestionContext, ingestionWorkerContext } from './ingestion-context.ts'
export { type IngestionStep, ingestionPipeline, stepAfterPartStage } from './ingestion-pipeline.ts'
export { PAGE_WIDTHS, type PageImages, type PageInfo, pageImages } from './page-images.ts'
export { reconcileDocuments } from './reconcile-documents.ts'
export {
  deleteDocument,
  REINDEX_ALL_PRIORITY,
  type RegisterOptions,
  type RegisterOutcome,
  registerDocument,
  safeFilename,
  safeRelativePath,
  type UploadInput,
  UploadRejectedError,
  uploadedName,
} from './register-document.ts'
export { reindexDocument } from './reindex-document.ts'
export { preparePartRows, storePart } from './repository/chunks.ts'
export { type ChunkFilter, type DocumentChunk, documentChunks } from './repository/document-chunks.ts'
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
export { textHash } from './text-hash.ts'
export { fetchWebPage, type WebFetchLimits, WebPageError } from './web-page/fetch-web-page.ts'
export {
  type GuardedFetcher,
  type GuardedResponse,
  guardedFetcher,
} from './web-page/guarded-fetcher.ts'
export { ingestWebPage } from './web-page/ingest-web-page.ts'
export { isPrivateAddress } from './web-page/private-address.ts'

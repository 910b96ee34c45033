/**
 * One version of a document: its content hash tells a re-upload's work from the previous one's.
 * The same shape as the ingestion jobs' payloads, so a stage passes its payload straight through.
 */
export interface DocumentVersion {
  documentId: string
  contentHash: string
}

/** One part of a document version: the unit the later stages fan out over. */
export interface PartRef extends DocumentVersion {
  part: number
}

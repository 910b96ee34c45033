export { type CredentialKeys, CredentialsError, openCredentials, sealCredentials } from './credentials.ts'
export { placeIsPrivate } from './place-is-private.ts'
export { rotateCredentials } from './rotate-credentials.ts'
export { type ReaderLimits, sourceReader } from './source-reader.ts'
export {
  getSource,
  getSync,
  insertSource,
  latestSyncs,
  listSources,
  recentSyncs,
  removeSource,
  type SourceRecord,
  type SyncRecord,
  updateSource,
} from './source-records.ts'
export {
  credentialKeys,
  requestSync,
  sourceSyncHandler,
  startSourceSchedule,
  startSourceSyncWorker,
} from './source-sync-worker.ts'
export { documentName, syncSource } from './sync-source.ts'

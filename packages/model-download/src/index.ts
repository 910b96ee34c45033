export {
  ChecksumError,
  type DownloadProgress,
  downloadFile,
  MissingFileError,
  sha256Of,
} from './download-file.ts'
export { withModelLock } from './model-lock.ts'
export {
  type EnsureModelOptions,
  ensureTransformersModel,
  type LocalModel,
  localModel,
  transformersFiles,
} from './transformers-model.ts'

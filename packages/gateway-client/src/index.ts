export { type CollectedFiles, collectFiles, type LocalFile } from './collect-files.ts'
export {
  type ApiDocument,
  type ApiQuestion,
  type ApiSearchHit,
  type ApiSection,
  createGatewayClient,
  type GatewayClient,
  GatewayError,
} from './gateway-client.ts'
export type { WaitOptions } from './poll-until.ts'

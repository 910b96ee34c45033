export { type CollectedFiles, collectFiles, type LocalFile } from './collect-files.ts'
export {
  createGatewayClient,
  type GatewayClient,
  GatewayError,
  type RemoteAnswer,
  type RemoteDocument,
  type RemoteHit,
  type RemoteSection,
} from './gateway-client.ts'

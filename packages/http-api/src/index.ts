export { listeningHost } from './access/listening-host.ts'
export { type AccessOptions, createApp, type GatewayDeps } from './create-app.ts'

export { type AccessOptions, createApp, type GatewayDeps } from './create-app.ts'

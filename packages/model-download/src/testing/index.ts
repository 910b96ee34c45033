export { type ModelHub, type ModelHubOptions, serveModelHub } from './model-hub.ts'

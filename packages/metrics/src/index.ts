export { createPlatformMetrics, METRIC_NAMES, type PlatformMetrics } from './platform-metrics.ts'
export { timedModel } from './timed-model.ts'

export { createPlatformMetrics, METRIC_NAMES, type PlatformMetrics } from './platform-metrics.ts'

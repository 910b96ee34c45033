import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { createPlatformMetrics, METRIC_NAMES } from './platform-metrics.ts'

// The Grafana dashboard in deploy/grafana asks only for series the platform exports: every metric
// name in its queries is one of METRIC_NAMES (histograms through _bucket/_sum/_count) or one of
// Node's default metrics a process registers.
const dashboard = JSON.parse(
  await readFile(new URL('../../../deploy/grafana/rag-platform-dashboard.json', import.meta.url), 'utf8'),
) as { panels: { title: string; targets: { expr: string }[] }[] }

describe('the Grafana dashboard', () => {
  it('queries only metrics the platform exports', async () => {
    const defaults = (await createPlatformMetrics('dashboard-test').registry.getMetricsAsJSON()).map(
      (metric) => metric.name,
    )
    const names = new Set([
      ...defaults,
      ...Object.values(METRIC_NAMES).flatMap((name) => [
        name,
        `${name}_bucket`,
        `${name}_sum`,
        `${name}_count`,
      ]),
    ])
    const asked = dashboard.panels.flatMap((panel) =>
      panel.targets.flatMap((target) =>
        [...target.expr.matchAll(/\brag_[a-z0-9_]+/g)].map((match) => match[0]),
      ),
    )
    expect(asked.length).toBeGreaterThan(8)
    expect(asked.filter((name) => !names.has(name))).toEqual([])
  })
})

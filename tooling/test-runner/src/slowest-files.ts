import type { FileResult } from './vitest-report.ts'

/** What an integration file cost the machine (sql-recording-setup.ts): its process's CPU and its ended children's. */
export interface FileCost {
  file: string
  cpuSeconds?: number | null
}

export interface Phase {
  name: string
  seconds: number
}

const seconds = (value: number) => `${value.toFixed(1).padStart(7)} s`

/**
 * The end of `pnpm test`: the slowest files and the wall time of each phase, so whoever adds the
 * next slow test sees where the time goes before CI's limit does.
 */
export function formatSlowest(
  results: FileResult[],
  phases: Phase[],
  costs: FileCost[] = [],
  count = 15,
): string {
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, count)
  const total = results.reduce((sum, result) => sum + result.seconds, 0)
  const measured = costs.filter(
    (cost): cost is FileCost & { cpuSeconds: number } => typeof cost.cpuSeconds === 'number',
  )
  const costliest = [...measured].sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, count)
  const cpu = measured.reduce((sum, cost) => sum + cost.cpuSeconds, 0)
  return [
    `=== the ${slowest.length} slowest test files (native pass; ${results.length} files, ${Math.round(total)} s summed over the workers) ===`,
    ...slowest.map((result) => `${seconds(result.seconds)}  ${result.file}`),
    ...(costliest.length > 0
      ? [
          `=== the ${costliest.length} costliest in CPU (their vitest worker and the processes they started; ${measured.length} integration files, ${Math.round(cpu)} s of CPU) ===`,
          ...costliest.map((cost) => `${seconds(cost.cpuSeconds)}  ${cost.file}`),
        ]
      : []),
    '=== wall time per phase ===',
    ...phases.map((phase) => `${seconds(phase.seconds)}  ${phase.name}`),
  ].join('\n')
}

import type { FileResult } from './vitest-report.ts'

export interface Phase {
  name: string
  seconds: number
}

const seconds = (value: number) => `${value.toFixed(1).padStart(7)} s`

/**
 * The end of `pnpm test`: the slowest files and the wall time of each phase, so whoever adds the
 * next slow test sees where the time goes before CI's limit does.
 */
export function formatSlowest(results: FileResult[], phases: Phase[], count = 15): string {
  const slowest = [...results].sort((a, b) => b.seconds - a.seconds).slice(0, count)
  const total = results.reduce((sum, result) => sum + result.seconds, 0)
  return [
    `=== the ${slowest.length} slowest test files (native pass; ${results.length} files, ${Math.round(total)} s summed over the workers) ===`,
    ...slowest.map((result) => `${seconds(result.seconds)}  ${result.file}`),
    '=== wall time per phase ===',
    ...phases.map((phase) => `${seconds(phase.seconds)}  ${phase.name}`),
  ].join('\n')
}

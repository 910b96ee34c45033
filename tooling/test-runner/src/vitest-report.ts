import { readFile } from 'node:fs/promises'
import { relative } from 'node:path'

/** One test file as vitest's JSON reporter saw it. */
export interface FileResult {
  /** Relative to the repository root. */
  file: string
  seconds: number
  passed: boolean
}

interface JsonReport {
  testResults: { name: string; startTime: number; endTime: number; status: string }[]
}

/** The files of a run, from `vitest run --reporter=json --outputFile.json=…`. */
export async function readVitestReport(path: string, root: string): Promise<FileResult[]> {
  const report = JSON.parse(await readFile(path, 'utf8')) as JsonReport
  return report.testResults.map((result) => ({
    file: relative(root, result.name),
    seconds: Math.max(0, (result.endTime - result.startTime) / 1000),
    passed: result.status === 'passed',
  }))
}

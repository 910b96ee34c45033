import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { type EvaluationReport, fileSafe, renderHtmlReport, renderMarkdown } from '@rag/evaluation'

const jsonl = (rows: unknown[]) =>
  rows.map((row) => JSON.stringify(row)).join('\n') + (rows.length ? '\n' : '')

/**
 * report.md, report.json, and per config failures-<config>.jsonl and questions-<config>.jsonl
 * (every question: rank of the first relevant source, top sources, scores, refused, timings).
 */
export async function writeReport(dir: string, report: EvaluationReport): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'report.md'), renderMarkdown(report))
  const compact = { ...report, configs: report.configs.map(({ questions: _questions, ...config }) => config) }
  await writeFile(join(dir, 'report.json'), `${JSON.stringify(compact, null, 2)}\n`)
  for (const config of report.configs) {
    await writeFile(join(dir, `questions-${fileSafe(config.name)}.jsonl`), jsonl(config.questions ?? []))
    await writeFile(join(dir, `failures-${fileSafe(config.name)}.jsonl`), jsonl(config.failures))
  }
}

export async function readBaseline(path: string): Promise<EvaluationReport> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as EvaluationReport
  } catch (error) {
    throw new Error(
      `--baseline ${path}: cannot read a report.json there (${error instanceof Error ? error.message : error})`,
    )
  }
}

/** The report as one self-contained HTML file (`--html`): Chart.js's own bundle inlined, so it opens offline. */
export async function writeHtmlReport(path: string, report: EvaluationReport): Promise<void> {
  const chartJsDir = dirname(createRequire(import.meta.url).resolve('chart.js'))
  const chartJs = await readFile(join(chartJsDir, 'chart.umd.min.js'), 'utf8')
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, renderHtmlReport(report, { chartJs }))
}

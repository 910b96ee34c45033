import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type EvaluationReport, fileSafe, renderMarkdown } from '@rag/evaluation'

/** report.md, report.json and one failures-<config>.jsonl per config, in `dir`. */
export async function writeReport(dir: string, report: EvaluationReport): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'report.md'), renderMarkdown(report))
  await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`)
  for (const config of report.configs) {
    await writeFile(
      join(dir, `failures-${fileSafe(config.name)}.jsonl`),
      config.failures.map((failure) => JSON.stringify(failure)).join('\n') +
        (config.failures.length ? '\n' : ''),
    )
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

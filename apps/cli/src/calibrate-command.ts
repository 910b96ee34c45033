import type { Writable } from 'node:stream'
import type { GatewayClient } from '@rag/gateway-client'
import { readNamedFile } from './read-named-file.ts'

export interface CalibrateCommandOptions {
  client: GatewayClient
  output: Writable
  collection: string
  /**
   * JSON Lines: {"question": …, "source": "faq.csv:r12"} or {"question": …, "source": null}
   * (unanswerable); absent: the collection's evaluation set (cases reviewers made from feedback).
   */
  questions?: string
  json?: boolean
}

/** The questions of a calibration file; a line that is not one names its number. */
type CalibrationQuestion = { question: string; source: string | null }

export function calibrationQuestions(text: string): CalibrationQuestion[] {
  return text.split(/\r?\n/).flatMap((line, index): CalibrationQuestion[] => {
    if (line.trim() === '') return []
    let record: unknown
    try {
      record = JSON.parse(line)
    } catch {
      throw new Error(`line ${index + 1}: not JSON (one {"question", "source"} object a line)`)
    }
    const { question, source, answerable } = (record ?? {}) as Record<string, unknown>
    if (typeof question !== 'string' || question.trim() === '')
      throw new Error(`line ${index + 1}: no "question"`)
    if (answerable === false || source === null || source === undefined) return [{ question, source: null }]
    if (typeof source !== 'string') throw new Error(`line ${index + 1}: "source" must be a source id or null`)
    return [{ question, source }]
  })
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`

/**
 * `rag calibrate --collection hr [--questions file.jsonl]`: refusal fitted on a team's questions —
 * the file's, or the collection's evaluation set (what reviewers made of feedback).
 */
export async function runCalibrateCommand(options: CalibrateCommandOptions): Promise<number> {
  const questions = options.questions
    ? calibrationQuestions(await readNamedFile(options.questions, 'the questions file'))
    : (await options.client.evaluationCases(options.collection)).map((entry) => ({
        question: entry.question,
        source: entry.expectedSource,
      }))
  if (questions.length === 0)
    throw new Error(
      `the evaluation set of ${options.collection} is empty: make cases from feedback (the web app's Feedback view, POST /feedback/{id}/case) or give --questions`,
    )
  const result = await options.client.calibrate(options.collection, questions)
  if (options.json) {
    options.output.write(`${JSON.stringify(result, null, 2)}\n`)
    return 0
  }
  const report = result.report
  if (!report) return 1
  const line = (name: string, figures: typeof report.before) =>
    `  ${name.padEnd(7)} right ${percent(figures.accuracy)}, unanswerable refused ${percent(figures.refusedUnanswerable)}, answerable refused ${percent(figures.falseRefusalRate)}\n`
  options.output.write(
    `${options.collection}: fitted on ${report.answerable} answerable and ${report.unanswerable} unanswerable questions; on questions each fit did not see (${report.folds}-fold cross-validation):\n${line('before', report.before)}${line('after', report.after)}questions searching ${options.collection} alone are judged by it from now on\n`,
  )
  return 0
}

import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type AnswerabilityExample, type AnswerabilityModel, fitAnswerability } from '@rag/questions'
import { DatasetError } from './dataset.ts'
import type { QuestionOutcome } from './question-outcomes.ts'

/**
 * Fits the answerability judgement on evaluation runs (`questions-<config>.jsonl` of runs with
 * `--without-gold`, so some questions lost the paragraph that answers them): each question's
 * signals, labelled by whether its corpus still held the answer. The result names what it was
 * fitted on, so a reviewer can tell which data the shipped weights come from.
 */
export async function fitRefusal(runs: string[], config = 'keyword'): Promise<AnswerabilityModel> {
  const examples: AnswerabilityExample[] = []
  const fittedOn: { run: string; questions: number; unanswerable: number; fingerprint: string }[] = []
  for (const dir of runs) {
    const path = join(dir, `questions-${config}.jsonl`)
    let text: string
    let report: { fingerprint?: string; dataset?: { name?: string } }
    try {
      text = await readFile(path, 'utf8')
      report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'))
    } catch {
      throw new DatasetError(
        `${dir}: no questions-${config}.jsonl and report.json (an eval run's --out folder)`,
      )
    }
    const outcomes = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as QuestionOutcome)
    const judged = outcomes.filter((o) => o.answerability)
    if (judged.length === 0) throw new DatasetError(`${path}: no question has answerability signals`)
    for (const outcome of judged)
      if (outcome.answerability)
        examples.push({ signals: outcome.answerability.signals, answerable: outcome.answerable, set: dir })
    fittedOn.push({
      run: report.dataset?.name ?? dir,
      questions: judged.length,
      unanswerable: judged.filter((o) => !o.answerable).length,
      fingerprint: report.fingerprint ?? '',
    })
  }
  const fitted = fitAnswerability(examples)
  return { ...fitted, fittedOn: { config, runs: fittedOn, date: new Date().toISOString().slice(0, 10) } }
}

import type { AnswerabilitySignals } from '@rag/retrieval'
import {
  type AnswerabilityExample,
  type AnswerabilityModel,
  answerProbability,
  fitAnswerability,
} from '../answerability-model.ts'

/** How a judgement did on questions it was not fitted on. */
export interface HeldOutFigures {
  /** Right decisions (answered when answerable, refused when not) over all questions. */
  accuracy: number
  /** Answerable questions refused. */
  falseRefusalRate: number
  /** Unanswerable questions refused. */
  refusedUnanswerable: number
}

export interface CalibrationReport {
  questions: number
  answerable: number
  unanswerable: number
  folds: number
  /** The shipped judgement on these questions (nothing fitted on them). */
  before: HeldOutFigures
  /** The collection's own judgement, each question judged by a fit that did not see it. */
  after: HeldOutFigures
}

const round = (value: number) => Math.round(value * 1000) / 1000

function figures(decisions: { answerable: boolean; answered: boolean }[]): HeldOutFigures {
  const answerable = decisions.filter((d) => d.answerable)
  const unanswerable = decisions.filter((d) => !d.answerable)
  return {
    accuracy: round(
      decisions.filter((d) => d.answerable === d.answered).length / Math.max(1, decisions.length),
    ),
    falseRefusalRate: round(answerable.filter((d) => !d.answered).length / Math.max(1, answerable.length)),
    refusedUnanswerable: round(
      unanswerable.filter((d) => !d.answered).length / Math.max(1, unanswerable.length),
    ),
  }
}

/**
 * Fits a collection's judgement on its questions' signals and says how it does on questions it
 * did not see: k-fold cross-validation (folds dealt by label, so each holds both kinds), against
 * the shipped judgement at `threshold` on the same questions. The model returned is fitted on all.
 */
export function crossValidatedFit(
  examples: { signals: AnswerabilitySignals; answerable: boolean }[],
  threshold: number,
  shipped?: AnswerabilityModel,
): { model: Pick<AnswerabilityModel, 'features' | 'weights' | 'bias'>; report: CalibrationReport } {
  const answerable = examples.filter((e) => e.answerable)
  const unanswerable = examples.filter((e) => !e.answerable)
  const folds = Math.max(2, Math.min(5, answerable.length, unanswerable.length))
  const foldOf = new Map<(typeof examples)[number], number>()
  for (const kind of [answerable, unanswerable]) {
    kind.forEach((example, i) => {
      foldOf.set(example, i % folds)
    })
  }
  const heldOut: { answerable: boolean; answered: boolean }[] = []
  for (let fold = 0; fold < folds; fold++) {
    const training: AnswerabilityExample[] = examples.filter((e) => foldOf.get(e) !== fold)
    const fitted = fitAnswerability(training, { epochs: 1500 })
    for (const example of examples.filter((e) => foldOf.get(e) === fold))
      heldOut.push({
        answerable: example.answerable,
        answered: answerProbability(example.signals, { ...fitted, fittedOn: {} }) >= 0.5,
      })
  }
  const before = figures(
    examples.map((e) => ({
      answerable: e.answerable,
      answered: answerProbability(e.signals, shipped) >= threshold,
    })),
  )
  return {
    model: fitAnswerability(examples, { epochs: 1500 }),
    report: {
      questions: examples.length,
      answerable: answerable.length,
      unanswerable: unanswerable.length,
      folds,
      before,
      after: figures(heldOut),
    },
  }
}

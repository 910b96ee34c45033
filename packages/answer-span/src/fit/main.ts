/**
 * Fits the short-answer model: `pnpm --filter @rag/answer-span fit --train <SQuAD-format file or
 * folder>... [--out src/span-model.json] [--epochs 6]`. Questions of one article in ten (by a hash
 * of its title) are held out; the held-out figures are printed and kept in the model. Training
 * data is fetched, never kept in the repository (docs/evaluation.md says where from); JSQuAD's
 * validation and test files, and the dev sets `pnpm eval` reports on, are never fitted on.
 */
import { writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import { answerF1, exactMatch } from '../answer-match.ts'
import { rankSpans } from '../short-answer.ts'
import type { SpanModel } from '../span-model.ts'
import { fitWeights, prepareExample } from './fit-span-model.ts'
import { type SpanExample, squadExamples, trainingFiles } from './squad-examples.ts'

const { values } = parseArgs({
  options: {
    train: { type: 'string', multiple: true },
    out: { type: 'string', default: new URL('../span-model.json', import.meta.url).pathname },
    epochs: { type: 'string', default: '6' },
  },
})
const files = trainingFiles(values.train ?? [])

function heldOut(example: SpanExample): boolean {
  let hash = 0
  for (const char of example.article) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0
  return hash % 10 === 0
}

const examples = squadExamples(files)
const training = examples.filter((example) => !heldOut(example))
const held = examples.filter(heldOut)
const prepared = training.map(prepareExample)
const usable = prepared.filter((example) => example !== null)
console.log(
  `${examples.length} questions (${held.length} held out); a candidate is the gold answer for ${usable.length} of ${training.length} training questions (${(usable.length / training.length).toFixed(3)})`,
)
const started = Date.now()
const weights = fitWeights(usable, { epochs: Number(values.epochs), learningRate: 0.1, l2: 1e-5 })
console.log(
  `fitted ${Object.keys(weights).length} weights in ${((Date.now() - started) / 1000).toFixed(0)} s`,
)

const model: SpanModel = { version: 1, fitted: {}, threshold: 0, weights }
const ranked = held.map((example) => ({
  example,
  best: rankSpans(example.question, example.sentence, model)[0],
}))
const THRESHOLDS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5]
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)
const sweep = THRESHOLDS.map((threshold) => {
  // Below the threshold the sentence answers, and is scored as such.
  const given = ranked.map(({ best }) => best !== undefined && best.probability >= threshold)
  const answers = ranked.map(({ example, best }, i) => (given[i] && best ? best.text : example.sentence))
  const golds = (i: number) => ranked[i]?.example.answers ?? []
  return {
    threshold,
    f1: mean(answers.map((answer, i) => answerF1(answer, golds(i)))),
    em: mean(answers.map((answer, i) => (exactMatch(answer, golds(i)) ? 1 : 0))),
    spans: mean(given.map((yes) => (yes ? 1 : 0))),
  }
})
for (const { threshold, f1, em, spans } of sweep)
  console.log(
    `threshold ${threshold.toFixed(2)}: held-out F1 ${f1.toFixed(3)} EM ${em.toFixed(3)} spans ${spans.toFixed(3)}`,
  )
// The highest threshold within a point of the best F1: a span is given only when it is that sure.
const bestF1 = Math.max(...sweep.map((row) => row.f1))
const chosen = sweep.filter((row) => row.f1 >= bestF1 - 0.01).at(-1) ?? {
  threshold: 0,
  f1: 0,
  em: 0,
  spans: 0,
}
const sentenceF1 = mean(held.map((example) => answerF1(example.sentence, example.answers)))
console.log(`held-out sentence alone F1 ${sentenceF1.toFixed(3)}; chosen threshold ${chosen.threshold}`)
model.threshold = chosen.threshold
model.fitted = {
  on: [...new Set(files.map((file) => basename(file).replace(/_\d+\.json$|\.json$/, '')))].join(', '),
  trainingQuestions: usable.length,
  heldOutQuestions: held.length,
  heldOutF1: Math.round(chosen.f1 * 1000) / 1000,
  heldOutExactMatch: Math.round(chosen.em * 1000) / 1000,
  heldOutSentenceF1: Math.round(sentenceF1 * 1000) / 1000,
  note: 'F1 and exact match of the span picked over the gold paragraph (sentence alone: the one holding the answer); one article in ten held out',
}
writeFileSync(values.out, `${JSON.stringify(model, null, 2)}\n`)
console.log(`wrote ${values.out}`)

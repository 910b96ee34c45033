import { answerF1, answerTypeOf, containsGold, exactMatch } from '@rag/answer-span'
import { type QuestionRecord, refusalScore, type ScoreScale } from '@rag/questions'
import type { ContextMeasure } from './context-recall.ts'
import { answerTexts, type EvalQuestion } from './dataset.ts'
import {
  CUTOFFS,
  keywordFaithfulness,
  mean,
  percentile,
  type RefusalSweepPoint,
  refusalSweep,
  scoreRanking,
} from './metrics.ts'
import { type QuestionOutcome, questionOutcomes, rankedDocuments } from './question-outcomes.ts'
import { type Histogram, timeHistogram } from './time-histogram.ts'

export interface Failure {
  question: string
  expected: string
  got: string[]
  why: string
}

export interface ConfigResult {
  name: string
  /** The scale refusal was judged on (and swept): term evidence, or reranker probability. */
  scale: ScoreScale
  /** Every figure, flat: `hit@1`, `mrr@10`, `ndcg@10`, `noAnswerAccuracy`, `p95.totalMs`, … */
  metrics: Record<string, number>
  sweep: RefusalSweepPoint[]
  best: RefusalSweepPoint | null
  degraded: string[]
  failures: Failure[]
  /** How the config was run (preset options and overrides): part of its fingerprint. */
  options: Record<string, unknown>
  /** Identifies dataset + settings + config: a baseline is comparable only with the same one. */
  fingerprint: string
  /** One record per question (written to questions-<config>.jsonl, not to report.json). */
  questions: QuestionOutcome[]
  /** Context recall and tokens per context budget measured (0 = whole passages). */
  context?: ContextMeasure[]
  /** Answer and retrieval times as histograms (the Evaluation view's). */
  histograms?: Partial<Record<'totalMs' | 'retrieveMs', Histogram>>
}

/** Right at the configured threshold: refused when it has no answer, answered from a relevant document first when it has one. */
type Judged = Pick<
  QuestionOutcome,
  'answerable' | 'refused' | 'firstRelevantRank' | 'expectedSource' | 'sourceRank'
>

/**
 * Whether the passage first is the one expected: the exact section when a case names one (a
 * stored case's `expectedSource`), else a relevant document.
 */
const expectedFirst = (outcome: Judged) =>
  outcome.expectedSource ? outcome.sourceRank === 1 : outcome.firstRelevantRank === 1

/** Right: refused when there is no answer; answered from the expected passage first when there is. */
export const isRight = (outcome: Judged) =>
  outcome.answerable ? !outcome.refused && expectedFirst(outcome) : outcome.refused

/** Answered from the expected document, but another section of it first: an outcome of its own. */
export const isOtherSection = (outcome: Judged) =>
  outcome.answerable &&
  !outcome.refused &&
  outcome.expectedSource !== null &&
  outcome.sourceRank !== 1 &&
  outcome.firstRelevantRank === 1

const round = (value: number) => (Number.isNaN(value) ? value : Math.round(value * 10000) / 10000)

export function scoreConfig(
  name: string,
  questions: EvalQuestion[],
  records: QuestionRecord[],
  documents: Map<string, string>,
  {
    threshold,
    scale,
    thresholds,
  }: {
    threshold: number
    scale: ScoreScale
    /** Both scales' thresholds: a reranker may judge passages only the embedder found. */
    thresholds: Parameters<typeof refusalScore>[3]
  },
): ConfigResult {
  const metrics: Record<string, number> = {}
  const failures: Failure[] = []
  const answerable = questions.map((q, i) => [q, records[i]] as const).filter(([q]) => q.gold !== null)
  const unanswerable = questions.map((q, i) => [q, records[i]] as const).filter(([q]) => q.gold === null)

  const scores = answerable.map(([question, record]) => {
    const ranked = record ? rankedDocuments(record, documents) : []
    const score = scoreRanking(ranked, question.gold ?? {})
    if (score.hit[10] === 0) {
      failures.push({
        question: question.query,
        expected: Object.keys(question.gold ?? {}).join(' '),
        got: ranked.slice(0, 3),
        why: 'not in the top 10',
      })
    }
    return score
  })
  for (const k of CUTOFFS) {
    metrics[`hit@${k}`] = mean(scores.map((s) => s.hit[k]))
    metrics[`recall@${k}`] = mean(scores.map((s) => s.recall[k]))
  }
  metrics['mrr@10'] = mean(scores.map((s) => s.reciprocalRank))
  metrics['ndcg@10'] = mean(scores.map((s) => s.ndcg10))

  // Refusal, from the number each question's refusal is decided on (the judgement's probability,
  // or the reranker's): at the configured threshold and swept.
  const bestOf = (record: QuestionRecord | undefined) =>
    refusalScore(record?.answerability, record?.sources ?? [], scale, thresholds)
  const refused = (record: QuestionRecord | undefined) =>
    record?.refused === true || bestOf(record) < threshold
  const outcomes = questionOutcomes(questions, records, documents, refused)
  // Source level (questions format): the exact expected source, not just its file.
  const withSource = outcomes.filter((o) => o.answerable && o.expectedSource)
  if (withSource.length > 0) {
    for (const k of [1, 3, 5]) {
      metrics[`source@${k}`] = mean(
        withSource.map((o) => (o.sourceRank !== null && o.sourceRank <= k ? 1 : 0)),
      )
    }
    metrics['sourceMrr@10'] = mean(
      withSource.map((o) => (o.sourceRank !== null && o.sourceRank <= 10 ? 1 / o.sourceRank : 0)),
    )
  }
  const best = outcomes.map((o, i) => ({
    score: bestOf(records[i]),
    answerable: o.answerable,
    relevantFirst: expectedFirst(o),
  }))
  if (unanswerable.length > 0) {
    metrics.noAnswerAccuracy = mean(unanswerable.map(([, r]) => (refused(r) ? 1 : 0)))
    for (const [q, r] of unanswerable) {
      if (!refused(r))
        failures.push({
          question: q.query,
          expected: '(refusal)',
          got: (r?.sources ?? []).slice(0, 3).map((s) => s.sourceId),
          why: `answered (${scale === 'reranker' ? 'reranker' : 'answerability'} ${bestOf(r)})`,
        })
    }
  }
  metrics.falseRefusalRate = mean(answerable.map(([, r]) => (refused(r) ? 1 : 0)))
  // An answerable question refused is a failure too — the costliest when the passage that answers
  // it came first (the judgement, not retrieval, was wrong).
  outcomes.forEach((outcome, i) => {
    if (!outcome.answerable || !outcome.refused) return
    const record = records[i]
    failures.push({
      question: outcome.query,
      expected: outcome.expectedSource ?? outcome.gold.join(' '),
      got: outcome.sources.slice(0, 3).map((source) => source.sourceId),
      why: `refused (${scale === 'reranker' ? 'reranker' : 'answerability'} ${bestOf(record)})${
        expectedFirst(outcome) ? ' with the expected passage first' : ''
      }`,
    })
  })
  // Right at the configured threshold, as the sweep counts it: refused when it has no answer,
  // answered from a relevant document first when it has one.
  const right = outcomes.map(isRight)
  metrics.accuracy = mean(right.map((ok) => (ok ? 1 : 0)))
  if (withSource.length > 0) metrics.otherSection = mean(outcomes.map((o) => (isOtherSection(o) ? 1 : 0)))
  const subtypes = new Map<string, boolean[]>()
  outcomes.forEach((o, i) => {
    if (o.subtype === null) return
    subtypes.set(o.subtype, [...(subtypes.get(o.subtype) ?? []), right[i] === true])
  })
  for (const [subtype, oks] of subtypes) {
    metrics[`subtype.${subtype}.accuracy`] = mean(oks.map((ok) => (ok ? 1 : 0)))
    metrics[`subtype.${subtype}.questions`] = oks.length
  }
  const sweep = refusalSweep(best)
  const top =
    unanswerable.length > 0
      ? [...sweep].sort((a, b) => b.accuracy - a.accuracy || a.threshold - b.threshold)[0]
      : undefined

  // Answers, when the config writes them: over the answerable questions answered.
  const answered = answerable.filter(([, r]) => r?.answer && r.refused === false)
  const withKeywords = answered.filter(([q]) => q.keywords.length > 0)
  if (withKeywords.length > 0) {
    const faithful = withKeywords.map(([q, r]) => keywordFaithfulness(r?.answer ?? '', q.keywords))
    // Share of the expected keywords in the answer, and answers holding every one of them.
    metrics.faithfulness = mean(faithful.map((f) => f.share))
    metrics.allKeywords = mean(faithful.map((f) => (f.exact ? 1 : 0)))
  }
  const withAnswers = answered.filter(([q]) => (q.answers?.length ?? 0) > 0)
  if (withAnswers.length > 0) {
    // SQuAD's own measures (the answer is the gold text), and the looser one a sentence meets.
    // Scored on the short answer when one was given (the extractive span), else the answer's text.
    const golds = (q: EvalQuestion) => q.answers ?? []
    const short = (r: (typeof withAnswers)[number][1]) => r?.citations[0]?.span ?? r?.answer ?? ''
    metrics.exactMatch = mean(withAnswers.map(([q, r]) => (exactMatch(short(r), golds(q)) ? 1 : 0)))
    metrics.f1 = mean(withAnswers.map(([q, r]) => answerF1(short(r), golds(q))))
    metrics.spanShare = mean(withAnswers.map(([, r]) => (r?.citations[0]?.span ? 1 : 0)))
    metrics.answerContainsGold = mean(
      withAnswers.map(([q, r]) => (containsGold(r?.answer ?? '', golds(q)) ? 1 : 0)),
    )
    // Per kind of answer asked for (answer-type.ts): F1 and exact match of the short answers, and
    // how often the span given is of that kind.
    const byType = new Map<string, typeof withAnswers>()
    for (const entry of withAnswers) {
      const type = answerTypeOf(entry[0].query)
      byType.set(type, [...(byType.get(type) ?? []), entry])
    }
    for (const [type, entries] of byType) {
      metrics[`type.${type}.questions`] = entries.length
      metrics[`type.${type}.f1`] = mean(entries.map(([q, r]) => answerF1(short(r), golds(q))))
      metrics[`type.${type}.exactMatch`] = mean(
        entries.map(([q, r]) => (exactMatch(short(r), golds(q)) ? 1 : 0)),
      )
    }
  }
  // A はい/いいえ (Yes/No) given to a question that asks for something else (何と呼ぶか): must be 0.
  metrics.yesNoToOtherQuestions = answered.filter(
    ([q, r]) =>
      answerTypeOf(q.query) !== 'yesno' && /^(はい|いいえ|yes|no)$/i.test(r?.citations[0]?.span ?? ''),
  ).length
  // Refusal of the unanswerable, by the kind of answer asked for.
  const unansweredByType = new Map<string, boolean[]>()
  for (const [q, r] of unanswerable) {
    const type = answerTypeOf(q.query)
    unansweredByType.set(type, [...(unansweredByType.get(type) ?? []), refused(r)])
  }
  for (const [type, refusals] of unansweredByType)
    metrics[`type.${type}.unanswerableRefused`] = mean(refusals.map((ok) => (ok ? 1 : 0)))
  if (answered.length > 0) {
    // How much a reader must read: an answer that holds the keywords in one sentence beats a page.
    metrics.answerChars = percentile(
      answered.map(([, r]) => [...(r?.answer ?? '')].length),
      50,
    )
  }
  const citing = answered.filter(([, r]) => (r?.citations.length ?? 0) > 0)
  if (citing.length > 0) {
    // A citation is valid when it names a passage the answer was given that holds the evidence:
    // a passage of a gold document, or one containing an expected keyword.
    metrics.citationValidity = mean(
      citing.map(([q, r]) => {
        const valid = (r?.citations ?? []).filter((citation) => {
          const source = r?.sources.find(
            (s) => s.sourceId === citation.sourceId && s.rank === citation.marker,
          )
          if (!source) return false
          const docId = documents.get(source.documentId)
          const text = `${source.text}\n${source.parentText}`.toLowerCase()
          return (
            (docId !== undefined && (q.gold?.[docId] ?? 0) > 0) ||
            answerTexts(q).some((k) => text.includes(k.toLowerCase()))
          )
        })
        return valid.length / (r?.citations.length ?? 1)
      }),
    )
  }
  const histograms: ConfigResult['histograms'] = {}
  for (const stage of ['retrieveMs', 'rerankMs', 'rephraseMs', 'generateMs', 'totalMs']) {
    const values = records.flatMap((r) =>
      typeof r?.timings[stage] === 'number' ? [r.timings[stage] as number] : [],
    )
    if (values.length === 0) continue
    if (stage === 'totalMs' || stage === 'retrieveMs') {
      const histogram = timeHistogram(values)
      if (histogram) histograms[stage] = histogram
    }
    metrics[`p50.${stage}`] = percentile(values, 50)
    metrics[`p95.${stage}`] = percentile(values, 95)
  }
  metrics.promptTokens = records.reduce((sum, r) => sum + (r?.usage?.promptTokens ?? 0), 0)
  metrics.completionTokens = records.reduce((sum, r) => sum + (r?.usage?.completionTokens ?? 0), 0)
  metrics.failedQuestions = records.filter((r) => r?.status === 'failed').length
  return {
    name,
    scale,
    metrics: Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, round(v)])),
    sweep,
    best: top ?? null,
    degraded: [...new Set(records.flatMap((r) => r?.degraded ?? []))].sort(),
    failures,
    options: {},
    fingerprint: '',
    questions: outcomes,
    histograms,
  }
}

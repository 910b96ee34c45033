import type { ChartConfiguration } from 'chart.js'
import type { RefusalSweepPoint } from './metrics.ts'
import type { Histogram } from './time-histogram.ts'

// The Evaluation view's charts as Chart.js configurations: the web app and the HTML report
// (`pnpm eval --html`) draw the same ones. Plain data, no chart.js code: both bring their own.

/** What the charts say, in the reader's language (English by default). */
/** The figures the bars show, by their keys in a report's metrics. */
export const BAR_METRICS = [
  'hit@1',
  'mrr@10',
  'source@1',
  'accuracy',
  'noAnswerAccuracy',
  'falseRefusalRate',
] as const
export type BarMetric = (typeof BAR_METRICS)[number]

export interface ChartWords {
  /** Each bar's name as a reader says it (never the metric's key). */
  metrics: Record<BarMetric, string>
  retrieval: string
  refusedUnanswerable: string
  refusedAnswerable: string
  operatingPoint: string
  sweep: string
  questions: string
  milliseconds: string
}

export const ENGLISH_CHART_WORDS: ChartWords = {
  metrics: {
    'hit@1': 'Expected document first',
    'mrr@10': 'Rank of the expected document (MRR@10)',
    'source@1': 'Expected passage first',
    accuracy: 'Right',
    noAnswerAccuracy: 'Unanswerable refused',
    falseRefusalRate: 'Answerable refused',
  },
  retrieval: 'Retrieval',
  refusedUnanswerable: 'Refused of the unanswerable',
  refusedAnswerable: 'Refused of the answerable',
  operatingPoint: 'Operating point (the configured threshold)',
  sweep: 'Thresholds swept',
  questions: 'Questions',
  milliseconds: 'ms',
}

const PALETTE = ['#2f5d8a', '#d9822b', '#3c8d5a', '#8a3c7c', '#7a7a7a', '#b5452f']

/**
 * The configurations' (or runs') figures side by side as bars: hit@1, MRR@10, the exact source's
 * when known, right at the threshold, refusals of the unanswerable and of the answerable.
 */
export function retrievalBars(
  configs: readonly { name: string; metrics: Record<string, number | null> }[],
  words: ChartWords = ENGLISH_CHART_WORDS,
): ChartConfiguration<'bar'> {
  const names = BAR_METRICS.filter((name) => configs.some((config) => Number.isFinite(config.metrics[name])))
  return {
    type: 'bar',
    data: {
      labels: names.map((name) => words.metrics[name]),
      datasets: configs.map((config, i) => ({
        label: config.name,
        data: names.map((name) => config.metrics[name] ?? 0),
        backgroundColor: PALETTE[i % PALETTE.length],
      })),
    },
    options: {
      animation: false,
      // Drawn to the height its box gives (CSS), not to a width-bound aspect: on a phone a
      // legend of several runs would otherwise leave the bars a strip a few pixels high.
      maintainAspectRatio: false,
      // Sideways bars: the figures' names stay readable at 390 px.
      indexAxis: 'y',
      plugins: { title: { display: true, text: words.retrieval } },
      scales: { x: { min: 0, max: 1 } },
    },
  }
}

/**
 * The refusal sweep as a curve: for each threshold, the share of unanswerable questions refused
 * (up is good) against the share of answerable ones refused (right is bad); the configured
 * threshold's point marked.
 */
export function refusalCurve(
  sweep: readonly SweepPoint[],
  threshold: number,
  words: ChartWords = ENGLISH_CHART_WORDS,
  /** An earlier run's sweep, drawn beside it: what changed. */
  earlier?: { label: string; sweep: readonly SweepPoint[] },
): ChartConfiguration<'scatter'> {
  const points = curvePoints(sweep)
  const operating = [...points].sort(
    (a, b) => Math.abs(a.threshold - threshold) - Math.abs(b.threshold - threshold),
  )[0]
  return {
    type: 'scatter',
    data: {
      datasets: [
        { label: words.sweep, data: points, showLine: true, borderColor: PALETTE[0], pointRadius: 2 },
        {
          label: words.operatingPoint,
          data: operating ? [operating] : [],
          pointRadius: 8,
          pointStyle: 'rectRot',
          backgroundColor: PALETTE[1],
        },
        ...(earlier
          ? [
              {
                label: earlier.label,
                data: curvePoints(earlier.sweep),
                showLine: true,
                borderColor: PALETTE[4],
                borderDash: [4, 4],
                pointRadius: 1,
              },
            ]
          : []),
      ],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { min: 0, max: 1, title: { display: true, text: words.refusedAnswerable } },
        y: { min: 0, max: 1, title: { display: true, text: words.refusedUnanswerable } },
      },
    },
  }
}

/** A sweep point as stored (a share not measured is null once written as JSON). */
type SweepPoint = Pick<RefusalSweepPoint, 'threshold'> & {
  noAnswerAccuracy: number | null
  falseRefusalRate: number | null
}

const curvePoints = (sweep: readonly SweepPoint[]) =>
  sweep.flatMap((point) =>
    Number.isFinite(point.noAnswerAccuracy) && Number.isFinite(point.falseRefusalRate)
      ? [
          {
            x: point.falseRefusalRate as number,
            y: point.noAnswerAccuracy as number,
            threshold: point.threshold,
          },
        ]
      : [],
  )

/** A time histogram as bars, each labelled with where its bin starts. */
export function timeHistogramChart(
  histogram: Histogram,
  title: string,
  words: ChartWords = ENGLISH_CHART_WORDS,
): ChartConfiguration<'bar'> {
  return {
    type: 'bar',
    data: {
      labels: histogram.counts.map((_, i) => `${Math.round(histogram.from + i * histogram.width)}`),
      datasets: [{ label: words.questions, data: histogram.counts, backgroundColor: PALETTE[2] }],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      plugins: { title: { display: true, text: title }, legend: { display: false } },
      scales: {
        x: { title: { display: true, text: words.milliseconds } },
        // A count of questions: whole numbers only (no 0.5 steps).
        y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: words.questions } },
      },
    },
  }
}

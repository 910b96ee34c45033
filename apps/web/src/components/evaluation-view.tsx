import { type ChartWords, refusalCurve, retrievalBars, timeHistogramChart } from '@rag/evaluation/charts'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { api, type EvaluationRun, type EvaluationRunDetail } from '../api.ts'
import { useApp } from '../app-context.ts'
import type { Translate } from '../i18n.ts'
import { ChartCanvas } from './chart-canvas.tsx'
import { DegradedNotice } from './degraded-notice.tsx'
import { ErrorMessage, messageOf } from './error-message.tsx'
import { EvaluationQuestions } from './evaluation-questions.tsx'
import { SynonymsLink } from './synonyms-link.tsx'
import { useCollections } from './use-collections.ts'
import { useInterval } from './use-interval.ts'

/** Runs compared in the bars: the chosen one and those before it. */
const RUNS_COMPARED = 5

const chartWords = (t: Translate): ChartWords => ({
  metrics: {
    'hit@1': t('eval.metric.hit1'),
    'mrr@10': t('eval.metric.mrr10'),
    'source@1': t('eval.metric.source1'),
    accuracy: t('eval.metric.accuracy'),
    noAnswerAccuracy: t('eval.metric.noAnswerAccuracy'),
    falseRefusalRate: t('eval.metric.falseRefusalRate'),
  },
  retrieval: t('eval.chart.retrieval'),
  refusedUnanswerable: t('eval.chart.refusedUnanswerable'),
  refusedAnswerable: t('eval.chart.refusedAnswerable'),
  operatingPoint: t('eval.chart.operatingPoint'),
  sweep: t('eval.chart.sweep'),
  questions: t('eval.chart.questions'),
  milliseconds: 'ms',
})

const when = (run: Pick<EvaluationRun, 'createdAt'>) => new Date(run.createdAt).toLocaleString()

/**
 * How good a collection's answers are, in pictures: run its evaluation set (cases made from
 * feedback), then see the runs side by side as bars, the refusal curve with the operating point
 * (and the run before it, dashed), answer and retrieval times, and every question it got wrong.
 */
export function EvaluationView() {
  const { t } = useApp()
  const collections = useCollections()
  const [collection, setCollection] = useState('')
  const [runs, setRuns] = useState<EvaluationRun[]>([])
  const [chosen, setChosen] = useState<string | null>(null)
  const [details, setDetails] = useState<Map<string, EvaluationRunDetail>>(new Map())
  const [error, setError] = useState<string | null>(null)
  const picked = collection || collections[0] || ''

  // Answers may come back out of order (a refresh on opening, another after a run starts): only
  // the latest asked is shown, or an older list without the new run would stop the polling.
  const asked = useRef(0)
  const refresh = async () => {
    if (!picked) return
    const mine = ++asked.current
    try {
      const list = (await api.listEvaluationRuns(picked)).runs
      if (mine !== asked.current) return
      setRuns(list)
      // Finished runs are read once (their reports do not change).
      const wanted = list
        .slice(0, RUNS_COMPARED)
        .filter((run) => run.status !== 'running' && !details.has(run.id))
      if (wanted.length > 0) {
        const read = await Promise.all(wanted.map((run) => api.getEvaluationRun(run.id)))
        setDetails((known) => new Map([...known, ...read.map((run) => [run.id, run] as const)]))
      }
    } catch (failure) {
      setError(messageOf(failure))
    }
  }
  useEffect(() => {
    setChosen(null)
    void refresh()
  }, [picked])
  // While a run is going, its progress is polled.
  useInterval(async () => {
    if (runs.some((run) => run.status === 'running')) await refresh()
  }, 1500)

  const run = async () => {
    setError(null)
    try {
      const started = await api.runEvaluation(picked)
      setChosen(started.id)
      await refresh()
    } catch (failure) {
      setError(messageOf(failure))
    }
  }

  const current = runs.find((r) => r.id === chosen) ?? runs.find((r) => r.status === 'done') ?? null
  const detail = current ? details.get(current.id) : undefined
  const words = chartWords(t)
  // A run of several configurations (`pnpm eval --save` with --configs) compares its own, one
  // bar each; a run of one compares it with the runs before it.
  const ownConfigs = detail?.report?.configs ?? []
  const compared =
    ownConfigs.length > 1
      ? ownConfigs.map((c) => ({ name: c.name, metrics: c.metrics }))
      : runs
          .filter((r) => r.status === 'done')
          .slice(0, RUNS_COMPARED)
          .flatMap((r) => {
            const config = details.get(r.id)?.report?.configs[0]
            return config ? [{ name: when(r), metrics: config.metrics }] : []
          })
          .reverse()
  const earlier = runs.filter((r) => r.status === 'done' && current && r.createdAt < current.createdAt)[0]
  const earlierSweep = earlier ? details.get(earlier.id)?.report?.configs[0]?.sweep : undefined
  const config = detail?.report?.configs[0]
  const threshold =
    config?.scale === 'reranker'
      ? detail?.report?.settings.rerankRefusalThreshold
      : detail?.report?.settings.refusalThreshold
  const charts = useMemo(() => {
    if (!config || threshold === undefined) return null
    return {
      bars: retrievalBars(compared, {
        ...words,
        retrieval: ownConfigs.length > 1 ? t('eval.chart.configs') : words.retrieval,
      }),
      curve: refusalCurve(
        config.sweep,
        threshold,
        words,
        earlier && earlierSweep ? { label: when(earlier), sweep: earlierSweep } : undefined,
      ),
      total: config.histograms?.totalMs
        ? timeHistogramChart(config.histograms.totalMs, t('eval.chart.answerTime'), words)
        : null,
      retrieve: config.histograms?.retrieveMs
        ? timeHistogramChart(config.histograms.retrieveMs, t('eval.chart.retrievalTime'), words)
        : null,
    }
  }, [detail, earlierSweep, compared.length, t])

  return (
    <section data-testid="evaluation-view">
      <h2>{t('nav.evaluation')}</h2>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          void run()
        }}
      >
        <label>
          {t('docs.collection')}{' '}
          <select
            value={picked}
            onChange={(event) => setCollection((event.target as HTMLSelectElement).value)}
            data-testid="evaluation-collection"
          >
            {collections.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button
          type="submit"
          data-testid="evaluation-run"
          disabled={!picked || runs.some((r) => r.status === 'running')}
        >
          {t('eval.run')}
        </button>
        {picked ? <SynonymsLink collection={picked} /> : null}
      </form>
      <ErrorMessage message={error} />
      {runs.length === 0 ? <p class="muted">{t('eval.none')}</p> : null}
      <ol class="evaluation-runs" data-testid="evaluation-runs">
        {runs.map((r) => (
          <li key={r.id} data-status={r.status} class={r.id === current?.id ? 'chosen' : ''}>
            <button type="button" class="link" onClick={() => setChosen(r.id)}>
              {when(r)}
            </button>{' '}
            <span class={`badge ${r.status === 'failed' ? 'failed' : r.status === 'done' ? 'ready' : ''}`}>
              {t(`eval.status.${r.status}`)}
            </span>{' '}
            <span class="muted">
              {r.status === 'running'
                ? t('eval.progress', { done: r.done, total: r.total })
                : (r.error ?? r.startedBy)}
            </span>
          </li>
        ))}
      </ol>
      {charts && current && config ? (
        <div data-testid="evaluation-detail" data-run={current.id}>
          <p class="muted" data-testid="evaluation-figures">
            {t('eval.figures', {
              right: format(config.metrics.accuracy),
              source: format(config.metrics['source@1']),
              otherSection: format(config.metrics.otherSection),
              refused: format(config.metrics.noAnswerAccuracy),
              falseRefusals: format(config.metrics.falseRefusalRate),
            })}
          </p>
          {/* A run whose model was missing measured the stand-in: said beside its figures. */}
          <DegradedNotice degraded={config.degraded} />
          <div class="charts">
            <ChartCanvas config={charts.bars} label={words.retrieval} />
            <ChartCanvas config={charts.curve} label={t('eval.chart.curve')} />
            {charts.total ? <ChartCanvas config={charts.total} label={t('eval.chart.answerTime')} /> : null}
            {charts.retrieve ? (
              <ChartCanvas config={charts.retrieve} label={t('eval.chart.retrievalTime')} />
            ) : null}
          </div>
          <EvaluationQuestions runId={current.id} config={config.name} />
        </div>
      ) : null}
    </section>
  )
}

const format = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? '–' : `${Math.round(value * 100)}%`

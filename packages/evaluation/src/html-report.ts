import { cell, configLabel, type EvaluationReport } from './report.ts'
import { refusalCurve, retrievalBars, timeHistogramChart } from './report-charts.ts'
import { isRight } from './score-config.ts'

/** Questions listed per configuration in the file; every one is in questions-<config>.jsonl. */
export const HTML_QUESTIONS_SHOWN = 2000

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  )
/** JSON inside a <script>: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')
/**
 * The evaluation as one self-contained HTML file: the figures, the charts the Evaluation view
 * draws (Chart.js, inlined as `chartJs`, so the file opens offline) and each configuration's
 * questions (the first HTML_QUESTIONS_SHOWN) with what was answered.
 */
export function renderHtmlReport(report: EvaluationReport, { chartJs }: { chartJs: string }): string {
  const charts: { id: string; config: unknown }[] = [
    { id: 'retrieval', config: retrievalBars(report.configs) },
  ]
  const sections = report.configs.map((config, c) => {
    const threshold =
      config.scale === 'reranker' ? report.settings.rerankRefusalThreshold : report.settings.refusalThreshold
    const canvases: string[] = []
    if (config.sweep.some((point) => Number.isFinite(point.noAnswerAccuracy))) {
      charts.push({ id: `refusal-${c}`, config: refusalCurve(config.sweep, threshold) })
      canvases.push(`refusal-${c}`)
    }
    for (const stage of ['totalMs', 'retrieveMs'] as const) {
      const histogram = config.histograms?.[stage]
      if (!histogram) continue
      const title = stage === 'totalMs' ? 'Answer time' : 'Retrieval time'
      charts.push({ id: `${stage}-${c}`, config: timeHistogramChart(histogram, title) })
      canvases.push(`${stage}-${c}`)
    }
    const shown = config.questions.slice(0, HTML_QUESTIONS_SHOWN)
    const rows = shown.map(
      (q) =>
        `<tr class="${isRight(q) ? 'right' : 'wrong'}"><td>${escapeHtml(q.query)}</td><td>${escapeHtml(
          q.expectedSource ?? (q.answerable ? q.gold.join(', ') : '(refuse)'),
        )}</td><td>${escapeHtml(q.sources[0]?.sourceId ?? '–')}</td><td>${
          q.refused ? 'refused' : escapeHtml((q.answer ?? '').slice(0, 300))
        }</td><td>${isRight(q) ? '✔' : '✘'}</td></tr>`,
    )
    return `<section><h2>${escapeHtml(configLabel(config))}</h2>
<p>${config.degraded.length > 0 ? `Degraded: ${escapeHtml(config.degraded.join(', '))}. ` : ''}Refusal judged on the ${config.scale} scale at ${threshold}.</p>
<div class="charts">${canvases.map((id) => `<div class="chart"><canvas id="${id}"></canvas></div>`).join('')}</div>
<h3>Questions${config.questions.length > shown.length ? ` (the first ${shown.length} of ${config.questions.length})` : ''}</h3>
<table><thead><tr><th>question</th><th>expected</th><th>first source</th><th>answer</th><th>right</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table></section>`
  })
  const metricNames = [
    'hit@1',
    'hit@5',
    'mrr@10',
    'source@1',
    'accuracy',
    'noAnswerAccuracy',
    'falseRefusalRate',
    'p95.totalMs',
  ]
  const summary = `<table><thead><tr><th>config</th>${metricNames.map((n) => `<th>${n}</th>`).join('')}</tr></thead><tbody>${report.configs
    .map(
      (c) =>
        `<tr><td>${escapeHtml(configLabel(c))}</td>${metricNames.map((n) => `<td>${cell(c.metrics[n])}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Evaluation: ${escapeHtml(report.dataset.name)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 72rem; padding: 0 1rem; color: #1d2733; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #d5dbe3; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
tr.wrong td:last-child { color: #b5452f; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
.chart { flex: 1 1 20rem; max-width: 34rem; position: relative; height: 20rem; }
</style></head><body>
<h1>Evaluation: ${escapeHtml(report.dataset.name)}</h1>
<p>${report.dataset.documents} documents, ${report.dataset.questions} questions (${report.dataset.answerable} answerable). Top-k ${report.settings.topK}; refusal thresholds ${report.settings.refusalThreshold} (answerability), ${report.settings.rerankRefusalThreshold} (reranker); embedding ${escapeHtml(report.settings.embedding ?? 'none')}, reranker ${escapeHtml(report.settings.reranker ?? 'none')}, LLM ${escapeHtml(report.settings.llm ?? 'none')}.</p>
${summary}
<div class="chart"><canvas id="retrieval"></canvas></div>
${sections.join('\n')}
<script>${chartJs.replace(/<\/script/gi, '<\\/script')}</script>
<script type="application/json" id="charts">${scriptJson(charts)}</script>
<script>
for (const { id, config } of JSON.parse(document.getElementById('charts').textContent))
  new Chart(document.getElementById(id), config)
</script>
</body></html>
`
}

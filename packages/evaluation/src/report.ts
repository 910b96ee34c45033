import type { ConfigResult } from './score-config.ts'

export interface EvaluationReport {
  dataset: { name: string; format: string; documents: number; questions: number; answerable: number }
  /** Of the dataset as run: its documents and the questions asked (after --limit / --sample). */
  fingerprint: string
  settings: {
    chunkSize: number
    chunkOverlap: number
    parentMaxChars: number
    topK: number
    searchK: number
    rerankTopK: number
    reranker: string | null
    llm: string | null
    embedding: string | null
    refusalThreshold: number
    rerankRefusalThreshold: number
  }
  ingest: { seconds: number; failed: { docId: string; error: string }[]; reused: boolean }
  configs: ConfigResult[]
}

/** The columns of the terminal table and the report, in this order. */
const COLUMNS = [
  'hit@1',
  'hit@5',
  'hit@10',
  'mrr@10',
  'ndcg@10',
  'recall@10',
  'accuracy',
  'noAnswerAccuracy',
  'falseRefusalRate',
  'faithfulness',
  'allKeywords',
  'exactMatch',
  'f1',
  'spanShare',
  'answerContainsGold',
  'answerChars',
  'citationValidity',
  'p95.totalMs',
]

/** A figure as the reports write it: an integer as is, a share to three places, none as –. */
export const cell = (value: number | null | undefined) =>
  value === undefined || value === null || Number.isNaN(value)
    ? '–'
    : Number.isInteger(value)
      ? String(value)
      : value.toFixed(3)

/** What a config ran without, in words: the model missing and what stood in for it. */
const WITHOUT: Record<string, string> = {
  vector: 'no embedding model: keyword results',
  rerank: 'no reranker: retrieval order',
  generate: 'no LLM',
}

/**
 * A config's name as every report prints it: marked in the row itself when it could not run as
 * named (`vector [ran degraded: no embedding model: keyword results]`), so a row of keyword figures
 * is never read as the embedder's.
 */
export function configLabel(config: Pick<ConfigResult, 'name' | 'degraded'>): string {
  if (config.degraded.length === 0) return config.name
  return `${config.name} [ran degraded: ${config.degraded.map((what) => WITHOUT[what] ?? `no ${what}`).join('; ')}]`
}

export function renderTable(report: EvaluationReport): string {
  const rows = [
    ['config', ...COLUMNS, 'degraded'],
    ...report.configs.map((c) => [
      configLabel(c),
      ...COLUMNS.map((k) => cell(c.metrics[k])),
      c.degraded.join(' ') || '–',
    ]),
  ]
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? []
  return rows.map((row) => row.map((value, i) => value.padEnd(widths[i] ?? 0)).join('  ')).join('\n')
}

export function renderMarkdown(report: EvaluationReport): string {
  const { dataset, settings, ingest } = report
  const lines = [
    '=== Evaluation Report ===',
    '',
    `Dataset: ${dataset.name} (${dataset.format}), ${dataset.documents} documents, ${dataset.questions} questions (${dataset.answerable} answerable)`,
    `Chunking: chunk size ${settings.chunkSize}, overlap ${settings.chunkOverlap}, parent max ${settings.parentMaxChars} characters`,
    `Retrieval: top-k ${settings.topK} sources per question, SEARCH_K ${settings.searchK}, refusal thresholds: answerability ${settings.refusalThreshold}, reranker ${settings.rerankRefusalThreshold}`,
    `Rerank: ${settings.reranker ?? 'none'} (RERANK_TOP_K ${settings.rerankTopK}); embedding: ${settings.embedding ?? 'none'}; LLM: ${settings.llm ?? 'none'}`,
    `Corpus: ${ingest.reused ? 'reused' : 'ingested'} in ${ingest.seconds.toFixed(1)} s through the pipeline; ${ingest.failed.length} documents failed`,
    '',
    `| config | ${COLUMNS.join(' | ')} | degraded |`,
    `| --- | ${COLUMNS.map(() => '---').join(' | ')} | --- |`,
    ...report.configs.map(
      (c) =>
        `| ${configLabel(c)} | ${COLUMNS.map((k) => cell(c.metrics[k])).join(' | ')} | ${c.degraded.join(' ') || '–'} |`,
    ),
    '',
  ]
  for (const config of report.configs) {
    lines.push(`## ${configLabel(config)}`, '')
    if (config.degraded.length > 0)
      lines.push(`Degraded (models unavailable): ${config.degraded.join(', ')}`, '')
    lines.push(...Object.entries(config.metrics).map(([key, value]) => `- ${key}: ${cell(value)}`))
    if (config.best) {
      lines.push(
        '',
        `Refusal threshold sweep on the ${config.scale === 'reranker' ? 'reranker probability' : 'answerability probability'} scale (${config.scale === 'reranker' ? 'RERANK_REFUSAL_THRESHOLD' : 'REFUSAL_THRESHOLD'}): best ${config.best.threshold} (accuracy ${cell(config.best.accuracy)}, no-answer accuracy ${cell(config.best.noAnswerAccuracy)}, false refusals ${cell(config.best.falseRefusalRate)})`,
        '',
        '| threshold | accuracy | no-answer accuracy | false refusals |',
        '| --- | --- | --- | --- |',
        ...config.sweep.map(
          (p) =>
            `| ${p.threshold} | ${cell(p.accuracy)} | ${cell(p.noAnswerAccuracy)} | ${cell(p.falseRefusalRate)} |`,
        ),
      )
    }
    if (config.context && config.context.length > 0 && (config.context[0]?.questions ?? 0) > 0) {
      lines.push(
        '',
        `Context an LLM would read (model-free; ${config.context[0]?.questions} answerable questions with answer strings; tokens estimated):`,
        '',
        '| context budget | context recall | tokens p50 | tokens p95 |',
        '| --- | --- | --- | --- |',
        ...config.context.map(
          (m) =>
            `| ${m.budget === 0 ? 'whole passages' : `${m.budget} tokens`} | ${cell(m.recall)} | ${m.tokensP50} | ${m.tokensP95} |`,
        ),
      )
    }
    lines.push('', `Failures: ${config.failures.length} (see failures-${fileSafe(config.name)}.jsonl)`, '')
  }
  return lines.join('\n')
}

export const fileSafe = (name: string) => name.replace(/[^A-Za-z0-9_.+-]/g, '_')

/** Metrics where lower is better; every other gated metric is higher-is-better. */
const LOWER_IS_BETTER = new Set(['falseRefusalRate'])
const GATED = [
  'hit@1',
  'hit@3',
  'hit@5',
  'hit@10',
  'mrr@10',
  'ndcg@10',
  'recall@10',
  'source@1',
  'source@3',
  'source@5',
  'sourceMrr@10',
  'accuracy',
  'noAnswerAccuracy',
  'falseRefusalRate',
  'faithfulness',
  'allKeywords',
  'exactMatch',
  'f1',
  'answerContainsGold',
  'citationValidity',
]

/** Every gated metric of a config present in both reports that got worse by more than maxDrop. */
export function compareWithBaseline(
  report: EvaluationReport,
  baseline: EvaluationReport,
  maxDrop: number,
): string[] {
  const regressions: string[] = []
  // Figures are comparable only for the same questions, documents, settings and config.
  if (baseline.fingerprint !== report.fingerprint)
    regressions.push(
      `dataset differs from the baseline (${baseline.dataset.name}, ${baseline.dataset.questions} questions → ${report.dataset.name}, ${report.dataset.questions})`,
    )
  for (const [key, value] of Object.entries(report.settings)) {
    const then = (baseline.settings as unknown as Record<string, unknown>)[key]
    if (JSON.stringify(then) !== JSON.stringify(value))
      regressions.push(
        `setting ${key} differs from the baseline (${JSON.stringify(then)} → ${JSON.stringify(value)})`,
      )
  }
  for (const before of baseline.configs) {
    if (!report.configs.some((c) => c.name === before.name))
      regressions.push(`${before.name}: in the baseline but not run`)
  }
  for (const config of report.configs) {
    const before = baseline.configs.find((c) => c.name === config.name)
    if (!before) {
      regressions.push(`${config.name}: not in the baseline`)
      continue
    }
    if (JSON.stringify(before.options) !== JSON.stringify(config.options))
      regressions.push(
        `${config.name}: options differ from the baseline (${JSON.stringify(before.options)} → ${JSON.stringify(config.options)})`,
      )
    for (const key of GATED) {
      const now = config.metrics[key]
      const then = before.metrics[key]
      const missing = (value: number | undefined) => value === undefined || Number.isNaN(value)
      if (missing(now) && missing(then)) continue
      if (missing(now) || missing(then)) {
        regressions.push(
          `${config.name} ${key}: ${missing(then) ? 'not in the baseline' : 'not measured now'}`,
        )
        continue
      }
      const drop = LOWER_IS_BETTER.has(key)
        ? (now as number) - (then as number)
        : (then as number) - (now as number)
      if (drop > maxDrop + 1e-9)
        regressions.push(`${config.name} ${key}: ${cell(then)} → ${cell(now)} (allowed drop ${maxDrop})`)
    }
  }
  return regressions
}

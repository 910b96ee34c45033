import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { dataFolderConfig, evalConfig, processEnvironment } from '@rag/config'
import type { DatasetFormat } from '@rag/evaluation'
import {
  DatasetError,
  DEFAULT_CONFIGS,
  fitRefusal,
  polaritySet,
  renderPolarity,
  scorePolarity,
} from '@rag/evaluation'
import { createLogger } from '@rag/log'
import { withRunningPlatform } from '@rag/process-supervisor'
import { runMain } from '@rag/runtime'
import { runEvalCommand } from './eval-command.ts'
import { progressReporter } from './progress-reporter.ts'

const USAGE = `usage: pnpm eval --dataset PATH [--format auto|questions|qa|squad|beir] [--docs PATH]
                 [--configs ${DEFAULT_CONFIGS.join(',')}] [--limit N] [--out DIR]
                 [--baseline report.json] [--max-drop 0.02] [--without-gold SHARE]
                 [--sample N] [--seed S] [--concurrency N] [--keep-schemas 5]
                 [--context-budgets 200,400,800,0] [--save] [--html FILE]
       pnpm eval --collection NAME [--configs …] [--out DIR] [--baseline report.json] [--save] [--html FILE]
       pnpm eval --fit-refusal MODEL.json --from RUN_DIR[,RUN_DIR…]
       pnpm eval --polarity JAQUAD_DIR,SQUAD_FILE [--per-language 100] [--out DIR]
  --polarity: yes/no answers against their sentences (no database): questions made from real
  sentences of the two reading sets, as written, negated, against other sentences; prints the
  figures and writes every pair with what was answered to DIR/polarity.jsonl.
  --collection: the collection's own evaluation set (cases made from feedback in the web app, or
  with POST /feedback/{id}/case) asked of the collection as it is; nothing is ingested.
  --save: keep the run in the database for the web app's Evaluation view. --html FILE: the report
  (figures, charts, every question's outcome) as one self-contained HTML file.
  --without-gold 0.5: refusal calibration; about half of the documents that answer a question are
  taken out of the corpus, so their questions must be refused (the report's threshold sweep).
  --sample N: N questions drawn over the whole dataset (seeded by --seed, default 1, which also
  picks the documents --without-gold takes out), instead of
  --limit's first N. --concurrency: questions in flight (default 4). --keep-schemas: evaluation
  corpora kept in the database (the most recently used; older ones are dropped).
  --fit-refusal: fits the answerability judgement on the keyword config's records of earlier runs
  (their --out folders, run with --without-gold) and writes it to MODEL.json (the shipped one is
  packages/questions/src/answerability-model.json).
  --context-budgets: the context budgets (tokens; 0 = whole passages) whose context recall and
  tokens are reported (default: CONTEXT_TOKENS and whole passages).
  configs: presets (vector, keyword, hybrid, hybrid+rerank, hybrid+fusion, parents-off, extractive,
  generate) with optional overrides, e.g. hybrid:alpha=0.3:rrfK=20 or keyword:k1=0.9:b=0.4
`

runMain(async () => {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      format: { type: 'string', default: 'auto' },
      docs: { type: 'string' },
      configs: { type: 'string', default: DEFAULT_CONFIGS.join(',') },
      limit: { type: 'string' },
      out: { type: 'string', default: 'eval-results' },
      baseline: { type: 'string' },
      'max-drop': { type: 'string', default: '0.02' },
      'without-gold': { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '4' },
      'keep-schemas': { type: 'string', default: '5' },
      'context-budgets': { type: 'string' },
      'fit-refusal': { type: 'string' },
      polarity: { type: 'string' },
      'per-language': { type: 'string', default: '100' },
      collection: { type: 'string' },
      save: { type: 'boolean' },
      html: { type: 'string' },
      from: { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  if (values.polarity !== undefined) {
    const [jaquad, squad] = values.polarity.split(',').map((path) => path.trim())
    if (!jaquad || !squad) {
      process.stderr.write(USAGE)
      process.exit(2)
    }
    const report = scorePolarity(await polaritySet({ jaquad, squad }, Number(values['per-language'])))
    await mkdir(values.out, { recursive: true })
    await writeFile(
      join(values.out, 'polarity.jsonl'),
      `${report.results.map((result) => JSON.stringify(result)).join('\n')}\n`,
    )
    process.stdout.write(`${renderPolarity(report)}\nwrote ${join(values.out, 'polarity.jsonl')}\n`)
    return
  }
  if (values['fit-refusal'] !== undefined) {
    if (!values.from) {
      process.stderr.write(USAGE)
      process.exit(2)
    }
    const model = await fitRefusal(values.from.split(',').map((dir) => dir.trim())).catch((error) => {
      if (!(error instanceof DatasetError)) throw error
      process.stderr.write(`error: ${error.message}\n`)
      process.exit(2)
    })
    await writeFile(values['fit-refusal'], `${JSON.stringify(model, null, 2)}\n`)
    process.stdout.write(
      `fitted on ${JSON.stringify(model.fittedOn)}\n${model.features.map((name, i) => `  ${name}: ${model.weights[i]}`).join('\n')}\n  bias: ${model.bias}\nwrote ${values['fit-refusal']}\n`,
    )
    return
  }
  const limit = values.limit === undefined ? undefined : Number(values.limit)
  const maxDrop = Number(values['max-drop'])
  const withoutGold = values['without-gold'] === undefined ? undefined : Number(values['without-gold'])
  const badShare = withoutGold !== undefined && !(withoutGold > 0 && withoutGold < 1)
  const sample = values.sample === undefined ? undefined : Number(values.sample)
  const seed = Number(values.seed)
  const concurrency = Number(values.concurrency)
  const keepSchemas = Number(values['keep-schemas'])
  const contextBudgets = values['context-budgets']?.split(',').map((budget) => Number(budget.trim()))
  const positiveInteger = (value: number | undefined) =>
    value === undefined || (Number.isInteger(value) && value > 0)
  if (
    values.help ||
    (!values.dataset && !values.collection) ||
    (values.dataset !== undefined && values.collection !== undefined) ||
    values.collection?.trim() === '' ||
    (limit !== undefined && !(limit > 0)) ||
    !(maxDrop >= 0) ||
    badShare ||
    !positiveInteger(sample) ||
    !Number.isInteger(seed) ||
    !positiveInteger(concurrency) ||
    !positiveInteger(keepSchemas) ||
    contextBudgets?.some((budget) => !(Number.isInteger(budget) && budget >= 0)) ||
    concurrency > 64
  ) {
    ;(values.help ? process.stdout : process.stderr).write(USAGE)
    process.exit(values.help ? 0 : 2)
  }
  // On the embedded default, the running platform's own database and queues (announced at start).
  const { dataDir } = dataFolderConfig.parse(processEnvironment()).storage
  const { env, used } = await withRunningPlatform(processEnvironment(), dataDir)
  if (used.length > 0)
    process.stderr.write(`eval: the running platform's ${used.join(' and ')} (${dataDir})\n`)
  const config = evalConfig.parse(env)
  const logger = createLogger({
    name: 'eval',
    level: config.log.level === 'info' ? 'warn' : config.log.level,
  })
  process.exitCode = await runEvalCommand(
    {
      dataset: values.dataset,
      collection: values.collection?.trim(),
      save: values.save === true,
      html: values.html,
      format: values.format as DatasetFormat | 'auto',
      docs: values.docs,
      configs: values.configs,
      limit: limit === undefined ? undefined : Math.floor(limit),
      out: values.out,
      baseline: values.baseline,
      maxDrop,
      withoutGold,
      seed,
      sample: sample === undefined ? undefined : { size: sample, seed },
      concurrency,
      keepSchemas,
      contextBudgets,
    },
    config,
    { output: process.stdout, logger, progress: progressReporter(process.stderr) },
  )
  process.exit()
})

export {
  DATASET_FORMATS,
  type Dataset,
  DatasetError,
  type DatasetFormat,
  type EvalDocument,
  type EvalQuestion,
} from './dataset.ts'
export { DEFAULT_CONFIGS, type EvalConfig, PRESETS, parseConfigs } from './eval-configs.ts'
export { fitRefusal } from './fit-refusal.ts'
export { EVAL_COLLECTION } from './ingest-corpus.ts'
export { detectFormat, loadDataset } from './load-dataset.ts'
export { keywordFaithfulness, refusalSweep, scoreRanking } from './metrics.ts'
export {
  compareWithBaseline,
  type EvaluationReport,
  fileSafe,
  renderMarkdown,
  renderTable,
} from './report.ts'
export { type EvalProgress, type EvaluationDeps, runEvaluation } from './run-evaluation.ts'
export type { ConfigResult, Failure } from './score-config.ts'
export { withGoldRemoved } from './without-gold.ts'

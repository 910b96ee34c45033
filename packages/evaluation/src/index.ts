export { type CollectionDataset, collectionDataset } from './collection-dataset.ts'
export {
  type CollectionRunRequest,
  type LiveEvaluationDeps,
  runCollectionEvaluation,
  startCollectionEvaluation,
} from './collection-evaluation.ts'
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
export { HTML_QUESTIONS_SHOWN, renderHtmlReport } from './html-report.ts'
export { EVAL_COLLECTION } from './ingest-corpus.ts'
export { detectFormat, loadDataset } from './load-dataset.ts'
export { keywordFaithfulness, refusalSweep, scoreRanking } from './metrics.ts'
export { type PolarityReport, renderPolarity, scorePolarity } from './polarity-eval.ts'
export { type PolarityPair, polaritySet } from './polarity-set.ts'
export {
  compareWithBaseline,
  configLabel,
  type EvaluationReport,
  fileSafe,
  renderMarkdown,
  renderTable,
} from './report.ts'
export { type EvalProgress, type EvaluationDeps, runEvaluation } from './run-evaluation.ts'
export {
  type EvaluationRun,
  type EvaluationRunDetail,
  failRun,
  finishRun,
  listRuns,
  RUN_SILENT_MS,
  readRun,
  runQuestions,
  startRun,
} from './run-store.ts'
export { type ConfigResult, type Failure, isRight } from './score-config.ts'
export { type Histogram, timeHistogram } from './time-histogram.ts'
export { withGoldRemoved } from './without-gold.ts'

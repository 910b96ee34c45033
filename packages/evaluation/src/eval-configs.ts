import type { AskOptions } from '@rag/api-contract'
import type { RetrievalSection } from '@rag/config'
import { DatasetError } from './dataset.ts'

/** One way of answering, compared with the others on the same corpus. */
export interface EvalConfig {
  name: string
  options: AskOptions
  /** Retrieval settings that differ from the configured ones (alpha, k, thresholds, BM25). */
  retrieval: Partial<RetrievalSection>
}

/** The named presets; `--configs` picks among them and adds `:key=value` overrides. */
export const PRESETS: Record<string, Pick<EvalConfig, 'options'>> = {
  vector: { options: { mode: 'vector', rerank: false, answer: 'none' } },
  keyword: { options: { mode: 'keyword', rerank: false, answer: 'none' } },
  hybrid: { options: { mode: 'hybrid', rerank: false, answer: 'none' } },
  'hybrid+rerank': { options: { mode: 'hybrid', rerank: true, answer: 'none' } },
  'hybrid+fusion': { options: { mode: 'hybrid', rerank: false, fusion: true, answer: 'none' } },
  'parents-off': { options: { mode: 'hybrid', rerank: false, parents: false, answer: 'none' } },
  extractive: { options: { mode: 'keyword', rerank: false, answer: 'extractive' } },
  generate: { options: { mode: 'hybrid', rerank: true, answer: 'generate' } },
}

export const DEFAULT_CONFIGS = [
  'vector',
  'keyword',
  'hybrid',
  'hybrid+rerank',
  'hybrid+fusion',
  'parents-off',
]

const number = (key: string, raw: string, min: number, max: number) => {
  const value = Number(raw)
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new DatasetError(`config override ${key}=${raw}: expected a number from ${min} to ${max}`)
  }
  return value
}
// The same rule as every boolean setting (@rag/config): true/false/1/0 only.
const flag = (key: string, raw: string) => {
  if (raw === 'true' || raw === '1') return true
  if (raw === 'false' || raw === '0') return false
  throw new DatasetError(`config override ${key}=${raw}: expected true, false, 1 or 0`)
}

/** Applies one `key=value` to a config. */
function override(config: EvalConfig, key: string, raw: string): void {
  switch (key) {
    case 'alpha':
      config.retrieval.hybridAlpha = number(key, raw, 0, 1)
      return
    case 'rrfK':
      config.retrieval.rrfK = number(key, raw, 1, 10000)
      return
    case 'k':
      config.retrieval.searchK = number(key, raw, 1, 500)
      return
    case 'threshold':
      config.retrieval.refusalThreshold = number(key, raw, 0, 1)
      return
    case 'rerankThreshold':
      config.retrieval.rerankRefusalThreshold = number(key, raw, 0, 1)
      return
    case 'k1':
      config.retrieval.bm25K1 = number(key, raw, 0, 10)
      return
    case 'b':
      config.retrieval.bm25B = number(key, raw, 0, 1)
      return
    case 'mode':
      if (raw !== 'vector' && raw !== 'keyword' && raw !== 'hybrid')
        throw new DatasetError(`mode=${raw}: expected vector, keyword or hybrid`)
      config.options.mode = raw
      return
    case 'answer':
      if (raw !== 'generate' && raw !== 'extractive' && raw !== 'none')
        throw new DatasetError(`answer=${raw}: expected generate, extractive or none`)
      config.options.answer = raw
      return
    case 'rerank':
    case 'fusion':
    case 'parents':
      config.options[key] = flag(key, raw)
      return
    default:
      throw new DatasetError(
        `unknown config override ${JSON.stringify(key)}: expected alpha, rrfK, k, threshold, rerankThreshold, k1, b, mode, answer, rerank, fusion, parents`,
      )
  }
}

/** `keyword,hybrid:alpha=0.3:rrfK=20` → configs; a spec's name is the whole spec, so variants stay apart. */
export function parseConfigs(spec: string): EvalConfig[] {
  return spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [presetName = '', ...overrides] = part.split(':')
      const preset = PRESETS[presetName]
      if (!preset) {
        throw new DatasetError(
          `unknown config ${JSON.stringify(presetName)}: expected one of ${Object.keys(PRESETS).join(', ')}`,
        )
      }
      const config: EvalConfig = { name: part, options: { ...preset.options }, retrieval: {} }
      for (const pair of overrides) {
        const [key = '', value] = pair.split('=')
        if (value === undefined)
          throw new DatasetError(`config override ${JSON.stringify(pair)}: expected key=value`)
        override(config, key, value)
      }
      return config
    })
}

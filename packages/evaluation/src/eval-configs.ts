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

/** A retrieval setting a config may override, with the range it accepts. */
const RETRIEVAL_OVERRIDES: Record<string, [setting: keyof RetrievalSection, min: number, max: number]> = {
  alpha: ['hybridAlpha', 0, 1],
  rrfK: ['rrfK', 1, 10000],
  k: ['searchK', 1, 500],
  threshold: ['refusalThreshold', 0, 1],
  rerankThreshold: ['rerankRefusalThreshold', 0, 1],
  k1: ['bm25K1', 0, 10],
  b: ['bm25B', 0, 1],
}
/** An option a config may override, with the values it accepts. */
const CHOICES = {
  mode: ['vector', 'keyword', 'hybrid'],
  answer: ['generate', 'extractive', 'none'],
} as const
const FLAGS = ['rerank', 'fusion', 'parents'] as const

const isOneOf = <T extends string>(values: readonly T[], raw: string): raw is T =>
  (values as readonly string[]).includes(raw)

/** Applies one `key=value` to a config. */
function override(config: EvalConfig, key: string, raw: string): void {
  const retrieval = RETRIEVAL_OVERRIDES[key]
  if (retrieval) {
    const [setting, min, max] = retrieval
    Object.assign(config.retrieval, { [setting]: number(key, raw, min, max) })
  } else if (key === 'mode' || key === 'answer') {
    const values = CHOICES[key]
    if (!isOneOf<string>(values, raw))
      throw new DatasetError(`${key}=${raw}: expected ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`)
    Object.assign(config.options, { [key]: raw })
  } else if (isOneOf(FLAGS, key)) config.options[key] = flag(key, raw)
  else {
    const known = [...Object.keys(RETRIEVAL_OVERRIDES), ...Object.keys(CHOICES), ...FLAGS]
    throw new DatasetError(`unknown config override ${JSON.stringify(key)}: expected ${known.join(', ')}`)
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

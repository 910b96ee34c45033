import type { SearchMode } from '@rag/api-contract/enums'
import type { AskOptions } from './api.ts'
import type { Language } from './i18n.ts'

export type Choice = 'default' | 'on' | 'off'

export interface Settings {
  language: Language
  mode: SearchMode
  /** null: the server's default (RERANK_TOP_K). */
  topK: number | null
  fusion: boolean
  rerank: Choice
  answer: 'default' | 'generate' | 'extractive'
}

const KEY = 'rag-settings'

export function loadSettings(storage: Storage, fallbackLanguage: Language): Settings {
  const defaults: Settings = {
    language: fallbackLanguage,
    mode: 'hybrid',
    topK: null,
    fusion: false,
    rerank: 'default',
    answer: 'default',
  }
  try {
    return { ...defaults, ...(JSON.parse(storage.getItem(KEY) ?? '{}') as Partial<Settings>) }
  } catch {
    return defaults
  }
}

export const saveSettings = (storage: Storage, settings: Settings) =>
  storage.setItem(KEY, JSON.stringify(settings))

/** What POST /ask gets: only what the user chose, so the server's defaults apply to the rest. */
export function askOptions(settings: Settings): AskOptions {
  return {
    mode: settings.mode,
    ...(settings.topK === null ? {} : { topK: settings.topK }),
    fusion: settings.fusion,
    ...(settings.rerank === 'default' ? {} : { rerank: settings.rerank === 'on' }),
    ...(settings.answer === 'default' ? {} : { answer: settings.answer }),
  }
}

export type Language = 'ja' | 'en'

/** Japanese when the question holds any kana or kanji; the answer and refusal follow it. */
export function languageOf(text: string): Language {
  return /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/.test(text) ? 'ja' : 'en'
}

export const REFUSALS: Record<Language, string> = {
  ja: '申し訳ありません。登録されている資料には、この質問に答えられる情報が見つかりませんでした。',
  en: 'Sorry, the indexed documents do not contain information that answers this question.',
}

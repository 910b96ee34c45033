export type Language = 'ja' | 'en'

/** Japanese when the question holds any kana or kanji; the answer and refusal follow it. */
export function languageOf(text: string): Language {
  return /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]/.test(text) ? 'ja' : 'en'
}

export const REFUSALS: Record<Language, string> = {
  ja: '申し訳ありません。登録されている資料には、この質問に答えられる情報が見つかりませんでした。',
  en: 'Sorry, the indexed documents do not contain information that answers this question.',
}

/**
 * The refusal with the passages it looked at, so the user can judge them (the sources stay listed
 * with it): at most three, by what they cite.
 */
export function refusalOf(language: Language, looked: { sourceId: string }[]): string {
  const near = [...new Set(looked.map((source) => source.sourceId))].slice(0, 3)
  if (near.length === 0) return REFUSALS[language]
  return language === 'ja'
    ? `${REFUSALS.ja}近い箇所として ${near.join('、')} を確認しました。`
    : `${REFUSALS.en} The nearest passages looked at: ${near.join(', ')}.`
}

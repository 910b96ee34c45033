// What an instruction-tuned model writes when the passages hold no answer (it is told to say
// 「資料には記載がありません」 / "The documents do not say."), and the usual variations of it.
const DECLINES = [
  /(資料|文書|情報|提供された|与えられた|参照|コンテキスト)[^。\n]{0,20}(記載|言及|記述|情報|答え|回答)[^。\n]{0,10}(ありません|ない|されていません|見つかりません|含まれていません)/,
  /(わかりません|分かりません|お答えできません|回答できません)/,
  /\b(the )?(documents?|passages?|context|information|sources?)( provided| given)? (do|does) not (say|contain|mention|include|provide|specify|answer)/i,
  /\b(no|not enough) (information|mention)\b[^.\n]{0,40}\b(documents?|passages?|context)/i,
  /\bI (cannot|can't|could not|couldn't) (find|answer|determine)\b/i,
  /\bnot (mentioned|found|stated|specified) in the (provided |given )?(documents?|passages?|context)/i,
]

/**
 * Whether a generated answer declines to answer: it says the documents do not hold the answer,
 * and says little else (a long answer that mentions a gap in passing still answers).
 */
export function answerDeclines(answer: string): boolean {
  const text = answer.replace(/\[[0-9, -]+\]/g, '').trim()
  if (text.length === 0) return true
  if (text.length > 160) return false
  return DECLINES.some((pattern) => pattern.test(text))
}

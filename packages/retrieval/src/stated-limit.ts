/**
 * A question about something beyond what it names ("クレジットカード以外の支払い方法", "other than
 * cash", "besides iPhone") over a passage that limits it ("クレジットカードのみです", "only by card"):
 * the passage decides the question (no) though it shares few of its words. Both are read from the
 * raw text, since the analyser drops the particles (のみ, だけ) and stopwords (only) that carry it.
 */
const ASKS_BEYOND =
  /以外|他の|ほかの|他に|ほかに|別の|\b(other than|besides|apart from|except|another|else|instead of)\b/
const STATES_LIMIT =
  /のみ|だけ|限り|限ら|限定|以外は|以外には|対応していません|できません|ありません|\b(only|exclusively|solely|except|not (be )?(supported|available|possible)|cannot|can't)\b/

export function asksBeyond(question: string): boolean {
  return ASKS_BEYOND.test(question.normalize('NFKC').toLowerCase())
}

export function statesLimit(passage: string): boolean {
  return STATES_LIMIT.test(passage.normalize('NFKC').toLowerCase())
}

const QUESTION_WORD =
  /何|なに|なん|いつ|どこ|誰|だれ|どう|どの|どれ|どんな|いくら|いくつ|なぜ|\b(what|when|where|who|whom|which|why|how)\b/
const YES_NO =
  /(ますか|ですか|ませんか|でしょうか|できる\?|ある\?)[?？]?\s*$|^(can|could|is|are|does|do|did|will|would|may|should|has|have)\b/

/** A yes/no question ("電話で問い合わせできますか", "Can I pay by cash?"): a passage saying no answers it. */
export function isYesNoQuestion(question: string): boolean {
  const text = question.normalize('NFKC').toLowerCase().trim()
  return YES_NO.test(text) && !QUESTION_WORD.test(text)
}

import { ANSWER_TYPES, type AnswerType } from '@rag/api-contract/enums'
import { type QuestionFrame, questionFrame } from './question-frame.ts'
import { isJapanese } from './span-tokens.ts'

/**
 * What kind of expression answers a question, read from its form: the short answer must be one
 * (a date for いつ, a number with its unit for 何人, a name for 何と呼ぶ), and a passage holding none
 * near the question's words is weaker evidence that it answers at all.
 */
export { ANSWER_TYPES, type AnswerType }

// A name asked for: 何と呼ぶ, 何と読む, 何と略す, 何という川, 正式名称は何. "What is X called",
// "what is the name of", "what does X stand for".
const JA_TERM =
  /(何|なん)(と|て)(呼|よ|読|言|い|略|称|名付|書)|(何|なん)という|(正式|略|通)称|名前は(何|なん)|名称は/
const EN_TERM =
  /\bwhat\s+(is|was|are|were)\b.*\b(called|named|known as|termed)\b|\bwhat\s+(is|was)\s+the\s+(name|term|title|word)\b|\bwhat\s+does\b.*\bstand\s+for\b|\bwhat\s+do\s+(you|we|they|people)\s+call\b/i
const JA_MONEY =
  /いくら|何円|何ドル|何万円|(料金|費用|価格|値段|金額|代金|手数料|会費|入会金|月額|年会費|家賃|運賃)は(いくら|何円|どれ)/
const EN_MONEY =
  /\bhow\s+much\b.*\b(cost|costs|price|fee|fees|charge|charges|pay|paid|spend|spent|worth|salary|rent|budget|fine)\b|\bwhat\s+(is|was)\s+the\s+(price|fee|cost|charge|rent|salary)\b/i
const JA_ORGANISATION =
  /(どこ|どの|何)の?(会社|企業|団体|組織|機関|大学|学校|チーム|省庁|政党|球団|メーカー|銀行)|(どこ|どの会社)が(開発|製造|販売|発行|運営|主催|設立)/
const EN_ORGANISATION =
  /\b(which|what)\s+(company|companies|organi[sz]ation|firm|team|university|college|agency|institution|club|band|party|manufacturer|bank|school)\b/i
const JA_DATE =
  /いつ|何時(?!間)|何曜|何年(?!間)|何月|何日(?!間)|(受付|営業|開館|診療|利用)(時間|日)は|期間は|期限は/
// A count asked for: 約何万人, 何人, 何割, どのくらい.
const JA_NUMBER =
  /(何|なん)(万|億|千|百)?(人|個|件|回|名|台|本|枚|冊|倍|歳|階|点|社|校|か所|箇所|ヶ所|か月|ヶ月|年間|日間|週間|時間|分間|秒|%|％|キロ|メートル|グラム|位|番目|度|割|パーセント|種類|つ)|いくつ|どのくらい|どれくらい|どれほど/
// A wh word anywhere (an embedded question, 何と呼ぶ cut as one word): never a yes or a no. 何か, 何も,
// 何とか are not questions' words ("is anything needed?" is yes/no).
const JA_WH_ANYWHERE =
  /(何|なに|なん)(?!か|も|とか|とも|度も|らか)|誰|だれ|どこ|いつ|いくつ|いくら|どの|どれ|どちら|どんな|どう(して|やって)|なぜ/
const EN_WH_ANYWHERE = /\b(what|who|whom|whose|where|when|which|why|how)\b/i

/** The type of answer `question` asks for (its frame, when already read). */
export function answerTypeOf(question: string, frame: QuestionFrame = questionFrame(question)): AnswerType {
  const japanese = isJapanese(question)
  const text = question.trim()
  if (japanese ? JA_TERM.test(text) : EN_TERM.test(text)) return 'term'
  if (japanese ? JA_MONEY.test(text) : EN_MONEY.test(text)) return 'money'
  if (japanese ? JA_ORGANISATION.test(text) : EN_ORGANISATION.test(text)) return 'organisation'
  if (
    japanese &&
    frame.type !== 'yesno' &&
    JA_DATE.test(text) &&
    /(何|なん)時|いつ|何曜|何月|何日/.test(text)
  )
    return 'date'
  if (japanese && frame.type !== 'yesno' && JA_NUMBER.test(text)) return 'number'
  switch (frame.type) {
    case 'yesno':
      if (japanese ? JA_WH_ANYWHERE.test(text) : EN_WH_ANYWHERE.test(text))
        return japanese && JA_DATE.test(text) ? 'date' : 'thing'
      return 'yesno'
    case 'date':
      return 'date'
    case 'number':
      return 'number'
    case 'person':
      return 'person'
    case 'place':
      return 'place'
    case 'reason':
      return 'reason'
    case 'method':
      return 'method'
    default:
      return japanese && JA_DATE.test(text) ? 'date' : 'thing'
  }
}

/** Whether a question can be answered はい/いいえ, yes/no: asks no question word, anywhere. */
export const asksYesNo = (question: string) => answerTypeOf(question) === 'yesno'

/** What a question asks for, when its words say: a date (いつ, when, what year) or a number (何人, how many). */
export type AnswerKind = 'date' | 'number'

const DATE_QUESTION =
  /^when\b|\b(what|which) (year|century|decade|month|day|date)\b|いつ|何年|何月|何日|何世紀|何時代|何曜/
const NUMBER_QUESTION =
  /\bhow (many|much|long|old|far|large|big|tall|high|deep)\b|\bwhat (percentage|percent|number|amount|proportion)\b|何人|何個|何回|何冊|何本|何台|何歳|何%|何パーセント|何メートル|何キロ|何円|何倍|何度|何割|何種類|いくつ|いくら|どのくらい|どれくらい|どれだけ/

export function answerKindOf(question: string): AnswerKind | null {
  const text = question.normalize('NFKC').toLowerCase()
  if (DATE_QUESTION.test(text)) return 'date'
  if (NUMBER_QUESTION.test(text)) return 'number'
  return null
}

// Month names as the analyser stems them (may is a stopword).
const MONTHS = new Set([
  'januari',
  'februari',
  'march',
  'april',
  'june',
  'juli',
  'august',
  'septemb',
  'octob',
  'novemb',
  'decemb',
])
// A date, or a span (何年 asks "which year" or "how many years": 2年間 answers it).
const DATE_UNITS = new Set(['年', '月', '日', '世紀', '年代', '年間', 'か月', 'ヶ月', 'カ月', '日間', '週間'])

/** Whether a passage term (with the one before it) is of the kind asked for: 1914, 7 月, July; any number. */
export function isAnswerKindTerm(kind: AnswerKind, term: string, previous: string | undefined): boolean {
  if (kind === 'number') return /\d/.test(term)
  return (
    /^(1\d{3}|20\d{2})$/.test(term) || MONTHS.has(term) || (DATE_UNITS.has(term) && /\d/.test(previous ?? ''))
  )
}

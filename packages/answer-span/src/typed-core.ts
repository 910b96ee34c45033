import type { AnswerType } from './answer-type.ts'
import { isJapanese } from './span-tokens.ts'

// The expression of the asked kind inside a span the model liked: a span is often a noun phrase
// that holds the date or number asked for and more ("1855 colonial constitution", "1998 NFL
// draft"); a "when" is answered by the date, a "how many" by the number (its unit and range are
// added back by wholeExpression).

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December'
const EN_DATE_FORMS = [
  // 1 September 1939, October 16, 2012, May 3rd 2013, September 1971
  new RegExp(
    String.raw`\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:${MONTHS})(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?(?:,?\s+\d{3,4})?\b`,
  ),
  /\b(?:(?:early|late)\s+)?(?:spring|summer|autumn|fall|winter)\s+(?:of\s+)?\d{3,4}\b/i,
  /\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?\b/,
  /\b(?:(?:early|mid|late)[\s-])?(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-first)[\s-]century\b/i,
  /\b\d{3,4}s?(?:\s?(?:BC|BCE|AD|CE))?\b/,
]
const EN_NUMBER =
  /[$€£¥]?\s?\b\d[\d,.]*(?:\s?(?:million|billion|thousand|hundred|trillion))?\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion)\b/i

/**
 * The part of an English span that is of the type asked (the date in "1855 colonial
 * constitution"), or the span itself. A Japanese span is left as it is: its candidates are cut at
 * particles, so a date or number is already a span of its own, with what belongs to it (2年間).
 */
export function typedCore(span: string, type: AnswerType): string {
  if (isJapanese(span)) return span
  if (type === 'date') {
    for (const form of EN_DATE_FORMS) {
      const found = span.match(form)?.[0]
      if (found) return found
    }
    return span
  }
  if (type === 'number' || type === 'money') return span.match(EN_NUMBER)?.[0]?.trim() ?? span
  return span
}

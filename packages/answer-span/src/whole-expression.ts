import type { AnswerType } from './answer-type.ts'

// What makes a span true, taken with it: the unit of a number (約35 → 約35万人), the other end of a
// range (9:30 → 9:30〜17:00), the days it holds on (平日, every Monday), the whole of an address it
// stands in (never cut at a URL's `?`), the words of a Markdown link rather than its syntax.

const JA_APPROX = /(約|およそ|おおよそ|最大|最小|最低|最長|最短|合計|計|年間|月額|年額|1人|一人)$/
const EN_APPROX =
  /(about|approximately|around|roughly|over|under|up to|at least|at most|more than|less than|nearly|almost|some|a total of)\s+$/i
const CURRENCY_BEFORE = /[$¥€£＄￥]$/
const JA_UNIT =
  /^([万億千百]?(km\/h|人|円|個|件|回|名|台|本|枚|冊|倍|歳|階|点|社|校|か所|箇所|ヶ所|カ所|か月|ヶ月|カ月|年間|日間|週間|時間|分間|分|秒|年|月|日|%|％|ドル|ユーロ|ポンド|km|㎞|kg|mg|g|m|cm|mm|L|ml|mL|MB|GB|TB|W|kW|V|℃|度|坪|畳|泊|ページ|文字|語|行|時|世紀|つ))+(以上|以下|未満|程度|前後|ほど|強|弱|まで|から)?/
// What qualifies a number that already has its unit: 780箇所「以上」, 2時間「後」, 100年「あまり」.
const JA_QUALIFIER = /^(以上|以下|未満|程度|前後|ほど|強|弱|余り|あまり|余|近く|後|前)/
const JA_UNIT_END =
  /(人|円|個|件|回|名|台|本|枚|冊|倍|歳|階|点|社|校|所|月|年間|日間|週間|時間|分間|分|秒|年|日|%|％|ドル|km|kg|m|度|泊|つ|世紀)$/
const EN_UNIT =
  /^(\s?(%|percent|per cent|million|billion|thousand|hundred|dollars?|yen|euros?|pounds?|people|persons|members|km|kilometers?|kilometres?|miles?|kg|kilograms?|grams?|meters?|metres?|hours?|minutes?|seconds?|days?|weeks?|months?|years?|pages?|times|GB|MB|TB))+\b/i
const TIME = String.raw`(\d{1,2}[:：]\d{2}|\d{1,2}時(\d{1,2}分|半)?|(午前|午後)\d{1,2}時(\d{1,2}分|半)?|\d{1,2}\s?(am|pm|a\.m\.|p\.m\.)|noon|midnight)`
const DATE = String.raw`(\d{4}年(\d{1,2}月(\d{1,2}日)?)?|\d{1,2}月\d{1,2}日|\d{1,2}日|(January|February|March|April|May|June|July|August|September|October|November|December)(\s\d{1,2})?(,?\s\d{4})?|\d{1,2}/\d{1,2}(/\d{2,4})?)`
const RANGE_TAIL = new RegExp(
  String.raw`^\s*(〜|～|~|-|–|—|から|to|until|till|through)\s*(${TIME}|${DATE})(まで)?`,
  'i',
)
const JA_DAYS =
  /(平日|土日祝日?|土日|祝日|休日|毎日|毎朝|毎晩|毎週[月火水木金土日]曜日?|毎月\d{1,2}日|(?:毎月)?(?:第\d)?[月火水木金土日]曜日?|年中無休)(は|の|、|\s)?$/
const EN_DAYS =
  /(on weekdays|on weekends|weekdays|weekends|every day|daily|every (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|month)|on (mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays))(,)?\s+(at\s+|from\s+)?$/i
const EN_DAYS_AFTER =
  /^\s+(on weekdays|on weekends|every day|daily|every (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)|(from )?monday (to|through) friday)\b/i
// A date as written whole: an era or 紀元前, the year, month and day (慶応3年10月14日, 天和2年, 5月16日).
const FULL_DATE =
  /(?:紀元前|紀元|西暦)?(?:\p{Script=Han}{2}(?=\d|元年))?(?:\d{1,4}|元)年(?:\d{1,2}月(?:\d{1,2}日)?)?(?:頃|ごろ)?|\d{1,2}月\d{1,2}日/gu
// The same in English: 1 September 1939, October 16, 2012, May 3rd 2013.
const EN_FULL_DATE =
  /\b(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|December)(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?(?:,?\s+\d{4})?/g
const EN_YEAR = /\b\d{3,4}(?:\s?(?:BC|BCE|AD|CE))?\b/
// A name is quoted whole (Von Miller, not Miller; the Economist Intelligence Unit): the capitalised
// words around it, not the one a sentence starts with.
const EN_NAME_BEFORE = /(?:\b\p{Lu}[\p{L}\p{M}'’.-]*\s+)+$/u
const EN_NAME_AFTER = /^(?:\s+\p{Lu}[\p{L}\p{M}'’.-]*)+/u
const NOT_NAME_WORDS =
  /^(?:The|A|An|In|On|At|By|For|From|With|To|Of|And|Or|But|As|After|Before|During|Since|When|While|This|That|These|Those|It|Its|His|Her|Their|Our|He|She|They|We|I)$/
const NAME_TYPES = new Set<AnswerType>(['person', 'organisation', 'place'])
const YEAR = /^(?:紀元前|紀元|西暦)?(?:\p{Script=Han}{2})?(?:\d{1,4}|元)年/u
const RANGE_HEAD = /[\d,，]+\s?[^\d\s、。,]{0,3}\s?(?:-|–|〜|～|~|から)\s?$/
const DATE_RANGE_HEAD = new RegExp(String.raw`(${TIME}|${DATE})\s?(から|〜|～|~|-|–|to|until)\s?$`, 'i')
const ASKS_RANGE = /から.*まで|何年から|いつから.*いつ|期間|\bbetween\b|\bfrom\b.*\bto\b|\bhow long\b/i
const URL = /https?:\/\/[^\s<>"'）)\]」]+/g
const MARKDOWN_LINK = /\[([^\]]+)\]\([^)\s]+\)/g

/** Whether a text holds an expression of the type: a date or time for いつ, a number for 何人. */
export function holdsType(text: string, type: AnswerType): boolean {
  switch (type) {
    case 'date':
      // A point in time, or a span of it (何年 asks either: 1603年, 3年).
      return new RegExp(
        `${TIME}|${DATE}|\\d{3,4}|\\d+\\s?(年|か月|ヶ月|カ月|週間|日間|日|時間|分|years?|months?|weeks?|days?|hours?|minutes?)|[月火水木金土日]曜|平日|毎週|毎日|時代|時期|世紀|年代|前期|中期|後期|初期|末期|頃|weekday|century|\\b(spring|summer|autumn|fall|winter)\\b`,
        'i',
      ).test(text)
    case 'number':
    case 'money':
      return /[\d０-９一二三四五六七八九十百千万億]|\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|hundred|thousand|million|billion)\b/i.test(
        text,
      )
    default:
      return true
  }
}

/**
 * The span as a person would quote it: widened over what belongs to it in its sentence — the unit
 * and the "about" of a number, the other end of a range and the days of a time, the whole URL or
 * link it cuts into.
 */
export function wholeExpression(
  sentence: string,
  span: string,
  type: AnswerType,
  /** The question asks a day or a time, not only a year (いつ, 何月何日 — not 何年): a date is quoted whole. */
  { fullDate = false, question = '' }: { fullDate?: boolean; question?: string } = {},
): string {
  let start = sentence.indexOf(span)
  if (start < 0) return span
  let end = start + span.length
  const before = () => sentence.slice(0, start)
  const after = () => sentence.slice(end)
  // A URL or a Markdown link it cuts into: the whole of it (a link: its words).
  for (const match of sentence.matchAll(URL)) {
    const from = match.index ?? 0
    const to = from + match[0].length
    if (start < to && end > from) {
      start = Math.min(start, from)
      end = Math.max(end, to)
    }
  }
  for (const match of sentence.matchAll(MARKDOWN_LINK)) {
    const from = match.index ?? 0
    const to = from + match[0].length
    if (start < to && end > from) return match[1] ?? span
  }
  const japanese = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sentence)
  if (!japanese && NAME_TYPES.has(type)) [start, end] = wholeName(sentence, start, end)
  if (type === 'number' || type === 'money' || type === 'date') {
    const unit = (
      /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(sentence) ? JA_UNIT : EN_UNIT
    ).exec(after())
    if (unit && /[\d０-９〇一二三四五六七八九十百千万億]$/.test(sentence.slice(start, end)))
      end += unit[0].length
    const qualifier = JA_QUALIFIER.exec(after())
    if (qualifier && type !== 'date' && JA_UNIT_END.test(sentence.slice(start, end)))
      end += qualifier[0].length
    // A rate's "per" (200km/h, 3回/日).
    const per = /^\/(h|s|時|日|週|月|年|人)/.exec(after())
    if (per && /[\d０-９a-zA-Z]$/.test(sentence.slice(start, end))) end += per[0].length
    if (CURRENCY_BEFORE.test(before())) start -= 1
    const approx = JA_APPROX.exec(before()) ?? EN_APPROX.exec(before())
    if (approx) start -= approx[0].length
  }
  if (type === 'number' || type === 'money') {
    // The first end of a range it is the second of (7,000冊-10,000冊).
    const head = RANGE_HEAD.exec(before())
    if (head) start -= head[0].length
  }
  if (type === 'date') {
    // The whole date a part of it stands in (14日 of 慶応3年10月14日), with its era (天和2年), when
    // the question asks for a day; the year alone when it asks 何年.
    for (const match of sentence.matchAll(FULL_DATE)) {
      const from = match.index ?? 0
      const to = from + match[0].length
      if (!(start < to && end > from)) continue
      if (fullDate) {
        start = Math.min(start, from)
        end = Math.max(end, to)
        continue
      }
      // 何年: the era before the year (天和2年), nothing after it.
      const year = YEAR.exec(match[0])
      if (year && from + year[0].length >= end) start = Math.min(start, from)
    }
    if (!japanese) {
      const widened = englishDate(sentence, start, end, fullDate)
      start = widened[0]
      end = widened[1]
    }
    // 午前4時, not 4時.
    const halfDay = /(午前|午後)$/.exec(before())
    if (halfDay && /^\d/.test(sentence.slice(start, end))) start -= halfDay[0].length
    if (japanese && !fullDate) {
      // 何年 asked: 1995年8月 answers it as 1995年.
      const year = YEAR.exec(sentence.slice(start, end))
      if (year && /^\d{1,2}月/.test(sentence.slice(start + year[0].length, end))) end = start + year[0].length
    }
    const range = RANGE_TAIL.exec(after())
    if (range) end += range[0].length
    // A range asked for (何年から何年, from when to when): its first end too.
    const head = ASKS_RANGE.test(question) ? DATE_RANGE_HEAD.exec(before()) : null
    if (head) start -= head[0].length
    const days = JA_DAYS.exec(before()) ?? EN_DAYS.exec(before())
    if (days) start -= days[0].length
    const daysAfter = EN_DAYS_AFTER.exec(after())
    if (daysAfter) end += daysAfter[0].length
  }
  return sentence
    .slice(start, end)
    .trim()
    .replace(/[、,\s]+$/, '')
}

/** An English name's capitalised words on both sides of the span, never a sentence's first function word. */
function wholeName(sentence: string, start: number, end: number): [number, number] {
  if (!/^\p{Lu}/u.test(sentence.slice(start, end))) return [start, end]
  const before = EN_NAME_BEFORE.exec(sentence.slice(0, start))
  if (before) {
    const words = before[0].split(/\s+/).filter(Boolean)
    while (words.length > 0 && NOT_NAME_WORDS.test(words[0] ?? '')) words.shift()
    if (words.length > 0) start -= before[0].length - before[0].indexOf(words[0] ?? '')
  }
  const after = EN_NAME_AFTER.exec(sentence.slice(end))
  if (after && /\p{Lu}[\p{L}\p{M}'’.-]*$/u.test(sentence.slice(start, end))) {
    const words = after[0].split(/\s+/).filter(Boolean)
    const kept = words.findIndex((word) => NOT_NAME_WORDS.test(word))
    const taken = kept < 0 ? words : words.slice(0, kept)
    if (taken.length > 0) end = sentence.indexOf(taken.at(-1) ?? '', end) + (taken.at(-1) ?? '').length
  }
  return [start, end]
}

/**
 * An English date as asked: the whole of it (1 September 1939) when a day is asked, the year alone
 * (2015, not "2015 season") when only a year is.
 */
function englishDate(sentence: string, start: number, end: number, fullDate: boolean): [number, number] {
  if (fullDate) {
    for (const match of sentence.matchAll(EN_FULL_DATE)) {
      const from = match.index ?? 0
      const to = from + match[0].length
      if (start < to && end > from) return [Math.min(start, from), Math.max(end, to)]
    }
    return [start, end]
  }
  const year = EN_YEAR.exec(sentence.slice(start, end))
  if (!year) return [start, end]
  const from = start + (year.index ?? 0)
  return [from, from + year[0].length]
}

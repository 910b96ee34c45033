import { describe, expect, it } from 'vitest'
import { tidySpan } from './tidy-span.ts'
import { holdsType, wholeExpression } from './whole-expression.ts'

describe('a short answer quoted whole', () => {
  it('keeps the unit and the "about" of a number', () => {
    expect(wholeExpression('市の人口は約35万人です。', '35', 'number')).toBe('約35万人')
    expect(wholeExpression('入会金は5,000円です。', '5,000', 'money')).toBe('5,000円')
    expect(wholeExpression('The fee is about $150 per year.', '150', 'money')).toBe('about $150')
    expect(wholeExpression('Employees get 20 days of paid leave.', '20', 'number')).toBe('20 days')
  })

  it('keeps the other end of a range and the days a time holds on', () => {
    expect(wholeExpression('窓口は平日は9:30〜17:00です。', '9:30', 'date')).toBe('平日は9:30〜17:00')
    expect(wholeExpression('The office is open from 9:30 to 17:00 on weekdays.', '9:30', 'date')).toBe(
      '9:30 to 17:00 on weekdays',
    )
    expect(wholeExpression('The duty changes every Monday at 09:00.', '09:00', 'date')).toBe(
      'every Monday at 09:00',
    )
  })

  it('never cuts inside a URL, and gives a Markdown link’s words', () => {
    expect(
      wholeExpression(
        'Report it at https://tracker.example/cgi?project=7 today.',
        'https://tracker.example/cgi',
        'thing',
      ),
    ).toBe('https://tracker.example/cgi?project=7')
    expect(
      wholeExpression('See the [Tracker](https://tracker.example/cgi?x=1) page.', '[Tracker](https', 'thing'),
    ).toBe('Tracker')
  })

  it('quotes an English name and date whole, and a year alone when a year is asked', () => {
    const sentence =
      'In 1979 the committee headed by Nicholas E. Golovin met the Economist Intelligence Unit.'
    expect(wholeExpression(sentence, 'Golovin', 'person')).toBe('Nicholas E. Golovin')
    expect(wholeExpression(sentence, 'Intelligence Unit', 'organisation')).toBe('Economist Intelligence Unit')
    const invasion = 'Germany invaded Poland on 1 September 1939, in the 1939 season.'
    expect(wholeExpression(invasion, '1 September', 'date', { fullDate: true })).toBe('1 September 1939')
    expect(wholeExpression('It was announced on October 16, 2012.', '2012', 'date', { fullDate: true })).toBe(
      'October 16, 2012',
    )
    expect(wholeExpression('They won the title in the 2015 season.', '2015 season', 'date')).toBe('2015')
  })

  it('keeps what qualifies a counted number, a date range asked for, and a year alone for 何年', () => {
    expect(wholeExpression('丹霞地形は中国全土で780箇所以上存在する。', '780', 'number')).toBe('780箇所以上')
    expect(wholeExpression('それぞれのタニは2つのハイに分かれる。', '2', 'number')).toBe('2つ')
    const survey = 'アカデミーが1985年から1986年にコソボを去った人々を調査した。'
    expect(wholeExpression(survey, '1986年', 'date', { question: '何年から何年の間に調査したの?' })).toBe(
      '1985年から1986年',
    )
    expect(wholeExpression(survey, '1986年', 'date', { question: '何年に調査したの?' })).toBe('1986年')
    expect(wholeExpression('1995年8月、委員会は計画を承認した。', '1995年8月', 'date')).toBe('1995年')
    const upkeep = '毎月第2火曜日の午前2時から午前4時までサービスを停止します。'
    expect(
      wholeExpression(upkeep, '4時', 'date', { fullDate: true, question: '何時から何時までですか' }),
    ).toBe('毎月第2火曜日の午前2時から午前4時')
  })

  it('knows a date from a noun, and a number from a word', () => {
    expect(holdsType('改定通知', 'date')).toBe(false)
    expect(holdsType('4月1日', 'date')).toBe(true)
    expect(holdsType('every Friday', 'date')).toBe(false)
    expect(holdsType('3年', 'number')).toBe(true)
  })
})

describe('a span tidied', () => {
  it('ends on a span that is nothing but brackets (it once looped for ever on one)', () => {
    for (const span of ['（', '「', ')', '(（', '」」', '"', ' ( ', ''])
      expect(tidySpan(span, 'thing')).toBe('')
    expect(tidySpan('（258日', 'number')).toBe('258日')
    expect(tidySpan('熊野丸」(日本郵船', 'thing')).toBe('熊野丸')
  })
})

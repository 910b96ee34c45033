import { describe, expect, it } from 'vitest'
import { polarityOf } from './polarity.ts'

describe('what a sentence says to a yes/no question', () => {
  it.each([
    ['入会金は必要ですか？', '入会金は不要です。', 'no'],
    ['入会金は必要ですか？', '入会時に入会金5,000円が必要です。', 'yes'],
    ['平日と休日で料金は違いますか？', '平日と休日の料金は同一です。', 'no'],
    ['平日と休日で料金は違いますか？', '休日の料金は平日と異なります。', 'yes'],
    ['駐車場はありますか？', '駐車場はございません。', 'no'],
    ['駐車場はありますか？', '建物の裏に駐車場があります。', 'yes'],
    ['ペットの同伴は可能ですか？', 'ペットの同伴はできません。', 'no'],
    ['ペットの同伴は可能ですか？', 'ペットの同伴は禁止です。', 'no'],
    ['見学は無料ですか？', '見学は有料です。', 'no'],
    ['見学は無料ですか？', '見学に料金はかかりません。', 'yes'],
    ['予約は必要ですか？', '予約をしなければなりません。', 'yes'],
    ['予約は必要ですか？', '予約はしなくても構いません。', 'no'],
    // The question's predicate negated itself: the sentence that it stays usable says no.
    ['解約したらすぐに機能が使えなくなりますか', '解約しても、その月の末日までは機能を使えます。', 'no'],
    ['解約したらすぐに機能が使えなくなりますか', '解約すると、すぐに機能は使えなくなります。', 'yes'],
    // A sentence that does not name the question's means (電話で) does not decide it.
    ['電話で問い合わせできますか', 'アプリ内のお問い合わせフォームで24時間受け付けています。', 'undecided'],
    ['電話で問い合わせできますか', '電話でのお問い合わせも受け付けています。', 'yes'],
    ['Can I pay other than by card?', 'Payment is by card only.', 'no'],
    ['Is a deposit required?', 'No deposit is required.', 'no'],
    ['Is a deposit required?', 'A deposit of $150 is required for tablets.', 'yes'],
    ['Is parking free?', 'Parking costs $5 a day.', 'no'],
    ["Isn't parking free?", 'Parking costs $5 a day.', 'no'],
    ['Is the office open on Sundays?', 'The office is closed on Sundays.', 'no'],
    [
      'Do prices differ between weekdays and holidays?',
      'Prices are the same on weekdays and holidays.',
      'no',
    ],
  ] as const)('%s / %s → %s', (question, sentence, expected) => {
    expect(polarityOf(question, sentence)).toBe(expected)
  })

  it('gives no yes or no from a sentence that does not decide the question', () => {
    expect(polarityOf('方式はAESですか？', '通信はすべて暗号化されます。')).toBe('undecided')
    expect(polarityOf('Is the exam held in June?', 'The exam is held at the main campus.')).toBe('undecided')
  })

  it('reads "not stated" as unanswerable, never as no', () => {
    expect(polarityOf('託児サービスはありますか？', '託児サービスについての記載はありません。')).toBe(
      'not-stated',
    )
    expect(polarityOf('Is there a shuttle bus?', 'A shuttle bus is not mentioned in this guide.')).toBe(
      'not-stated',
    )
  })

  it('leaves a Japanese question negated itself undecided, where はい can mean either', () => {
    expect(polarityOf('カード以外で支払いできませんか？', '支払いはカードのみです。')).toBe('undecided')
  })
})

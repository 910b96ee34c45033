import { describe, expect, it } from 'vitest'
import { answerTypeOf } from './answer-type.ts'

describe('the kind of answer a question asks for', () => {
  it.each([
    ['入会金は必要ですか？', 'yesno'],
    ['平日と休日で料金は違いますか？', 'yesno'],
    ['Can I pay other than by card?', 'yesno'],
    ['この川は何と呼ばれていますか？', 'term'],
    ['この漢字は何と読みますか？', 'term'],
    ['国際連合は英語で何と略されますか？', 'term'],
    ['その技法を何というか。', 'term'],
    ['What is the disease called?', 'term'],
    ['江戸幕府を開いたのは誰ですか？', 'person'],
    ['本社はどこにありますか？', 'place'],
    ['その製品はどこの会社が開発しましたか？', 'organisation'],
    ['Which company built the bridge?', 'organisation'],
    ['定休日はいつですか？', 'date'],
    ['When is the office open?', 'date'],
    ['受付時間は何時から何時までですか？', 'date'],
    ['東京の人口は約何万人ですか？', 'number'],
    ['How many people attended?', 'number'],
    ['入会金はいくらですか？', 'money'],
    ['How much does the course cost?', 'money'],
    ['なぜLEDを交換できないのですか？', 'reason'],
    ['How do I reset the password?', 'method'],
    // "what"/"which" and the noun asked about, past the words that qualify it, never past the verb.
    ['Which player scored the winning goal?', 'person'],
    ['What Dutch painter made the portrait?', 'person'],
    ['What California venue hosted the final?', 'place'],
    ['What position does the mayor hold?', 'thing'],
  ] as const)('%s → %s', (question, type) => {
    expect(answerTypeOf(question)).toBe(type)
  })

  it('never takes a question holding a question word for a yes/no question', () => {
    for (const question of [
      'この現象を何と呼ぶか',
      '誰がその賞を受けましたか',
      'どこで開催されましたか',
      'Do you know when the train leaves?',
    ])
      expect(answerTypeOf(question)).not.toBe('yesno')
  })
})

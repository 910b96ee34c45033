import { describe, expect, it } from 'vitest'
import { questionFrame } from './question-frame.ts'
import { shortAnswerIn } from './short-answer.ts'

describe('shortAnswerIn (the shipped model)', () => {
  it('names the number with its unit a how-many question asks for', () => {
    expect(shortAnswerIn('保証期間は何年？', '保証期間は購入日から3年です。')?.text).toBe('3年')
  })

  it('names the person a who question asks for, not the words it repeats', () => {
    expect(
      shortAnswerIn('江戸幕府を開いたのは誰ですか', '1603年、徳川家康は江戸に幕府を開いた。')?.text,
    ).toBe('徳川家康')
  })

  it('names the date a when question asks for in the same sentence', () => {
    expect(
      shortAnswerIn('江戸幕府はいつ開かれましたか', '1603年、徳川家康は江戸に幕府を開いた。')?.text,
    ).toBe('1603年')
  })

  it('answers a when or how-many question with the value, not the noun phrase holding it', () => {
    expect(
      shortAnswerIn(
        'When did the council adopt its charter?',
        'The 1871 municipal charter replaced the older town rules.',
      )?.text,
    ).toBe('1871')
    expect(
      shortAnswerIn(
        'When did the school move to its new site?',
        'Its 1964 relocation to the hill site doubled the pupils.',
      )?.text,
    ).toBe('1964')
    expect(
      shortAnswerIn(
        'How many people live in the valley?',
        'About 12,000 residents live in the valley, most of them farmers.',
      )?.text,
    ).toBe('About 12,000')
  })

  it('names the place a where question asks for', () => {
    expect(shortAnswerIn('本社はどこにありますか', '当社の本社は大阪府大阪市北区にあります。')?.text).toBe(
      '大阪府大阪市北区',
    )
  })

  it('answers an English who question with the name', () => {
    expect(
      shortAnswerIn(
        'Who founded the Edo shogunate?',
        'The Edo shogunate was founded by Tokugawa Ieyasu in 1603.',
      )?.text,
    ).toBe('Tokugawa Ieyasu')
  })

  it('answers yes or no by whether the sentence says it as asked', () => {
    expect(shortAnswerIn('返品はできますか', '返品はできません。')?.text).toBe('いいえ')
    // Of a narrower thing (returns after opening), the sentence decides nothing about returns.
    expect(shortAnswerIn('返品はできますか', '開封後の返品はできません。')).toBeNull()
    expect(shortAnswerIn('返品はできますか', '未開封であれば30日以内に返品できます。')?.text).toBe('はい')
    expect(shortAnswerIn('Can the lamp be dimmed?', 'The lamp cannot be dimmed.')?.text).toBe('No')
  })

  it('gives no span for a why question: a reason is a clause, the sentence answers', () => {
    expect(shortAnswerIn('なぜ交換できないのですか', 'LEDは本体と一体型のため交換できません。')).toBeNull()
  })

  it('gives no span when the sentence holds nothing that could be one', () => {
    expect(shortAnswerIn('誰が書きましたか', 'はい、そうです。')).toBeNull()
  })
})

describe('questionFrame', () => {
  it('finds a question word the analyser cuts wrongly (はいつ → は・い・つ)', () => {
    expect(questionFrame('江戸幕府はいつ開かれましたか').type).toBe('date')
  })

  it('reads a question without a question word that ends on a noun as asking for a thing, not yes/no', () => {
    expect(questionFrame('フランツ・カフカの父親の名前は?').type).toBe('entity')
    expect(questionFrame('タイマー機能はありますか').type).toBe('yesno')
  })

  it('reads the kind an English question asks for', () => {
    expect(questionFrame('How many hours does it take?').type).toBe('number')
    expect(questionFrame('In what year did it open?').type).toBe('date')
    expect(questionFrame('Which country borders it?').type).toBe('place')
    expect(questionFrame('Is it waterproof?').type).toBe('yesno')
  })
})

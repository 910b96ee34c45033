import { describe, expect, it } from 'vitest'
import { Bm25Index } from './bm25-index.ts'
import { analyzeText, tokenize } from './tokenize.ts'

describe('tokenize', () => {
  it('keeps the content words of Japanese in their base forms, by part of speech', () => {
    expect(tokenize('保証期間は何年ですか？')).toEqual(['保証', '期間', '年'])
    expect(tokenize('東京は日本の首都と呼ばれています')).toEqual(['東京', '日本', '首都', '呼ぶ'])
  })

  it('drops a question’s request frame but not the same verb elsewhere', () => {
    expect(tokenize('プロプランの内容と価格を教えてください')).toEqual([
      'プロ',
      'プラン',
      '内容',
      '価格',
      '教える',
    ])
    expect(analyzeText('プロプランの内容と価格を教えてください', { question: true }).words).toEqual([
      'プロ',
      'プラン',
      '内容',
      '価格',
    ])
  })

  it('keeps an unknown katakana name whole', () => {
    expect(tokenize('キャヴェンディッシュはどの大学で学んだ')).toEqual([
      'キャヴェンディッシュ',
      '大学',
      '学ぶ',
    ])
  })

  it('stems English, drops stopwords and possessives, and folds full-width and case', () => {
    expect(tokenize('The lamps are Charging over ＵＳＢ-C')).toEqual(['lamp', 'charg', 'over', 'usb', 'c'])
    expect(tokenize("Manning's passer rating, Levi’s Stadium")).toEqual([
      'man',
      'passer',
      'rate',
      'levi',
      'stadium',
    ])
  })

  it('matches a question to its passage across inflections and widths', () => {
    const index = new Bm25Index()
    index.add(tokenize('付属のUSB-Cケーブルで充電します。満充電までの時間は約3時間です。'))
    index.add(tokenize('本製品の保証期間はお買い上げ日から2年間です。'))
    expect(index.search(tokenize('充電にかかる時間は？'))[0]?.doc).toBe(0)
    expect(index.search(tokenize('保証は何年？'))[0]?.doc).toBe(1)
  })

  it('cuts Japanese runs into character pairs across word borders, nothing for English', () => {
    expect(analyzeText('国家の保証 and more').bigrams).toEqual(['国家', '家の', 'の保', '保証'])
    expect(tokenize('保証', 'bigram')).toEqual(['保証'])
  })

  it('keeps the ICU-words analyser as a baseline', () => {
    expect(tokenize('保証期間は何年ですか？', 'icu')).toEqual(['保証', '期間', '何年'])
  })
})

import { describe, expect, it } from 'vitest'
import { Bm25Index } from './bm25-index.ts'
import { tokenize } from './tokenize.ts'

describe('tokenize', () => {
  it('segments Japanese into words and drops particles', () => {
    expect(tokenize('保証期間は何年ですか？')).toEqual(['保証', '期間', '何年'])
  })

  it('stems English, drops stopwords, and folds full-width and case', () => {
    expect(tokenize('The lamps are Charging over ＵＳＢ-C')).toEqual(['lamp', 'charg', 'over', 'usb', 'c'])
  })

  it('matches a question to its passage across inflections and widths', () => {
    const index = new Bm25Index()
    index.add(tokenize('付属のUSB-Cケーブルで充電します。満充電までの時間は約3時間です。'))
    index.add(tokenize('本製品の保証期間はお買い上げ日から2年間です。'))
    expect(index.search(tokenize('充電にかかる時間は？'))[0]?.doc).toBe(0)
    expect(index.search(tokenize('保証は何年？'))[0]?.doc).toBe(1)
  })

  it('offers character bigrams as an alternative for Japanese', () => {
    expect(tokenize('保証期間', 'bigram')).toEqual(['保証', '証期', '期間'])
  })
})

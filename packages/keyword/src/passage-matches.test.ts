import { describe, expect, it } from 'vitest'
import { passageMatches } from './passage-matches.ts'
import { analyzeQuery } from './passage-relevance.ts'
import { parseSolrSynonyms, SynonymTable } from './synonyms/index.ts'

describe('passageMatches', () => {
  it("names the passage's own words for the question's words, Japanese and English", () => {
    const ja = analyzeQuery('保証期間は何年ですか', null)
    expect(passageMatches('保証期間はお買い上げ日から2年間です。', ja.words).words).toEqual(['保証期間'])
    const en = analyzeQuery('How long is the warranty period?', null)
    expect(passageMatches('The Warranty period lasts two years.', en.words)).toEqual({
      words: ['Warranty', 'period'],
      synonyms: [],
    })
  })

  it('says which words matched through a synonym, and for which word of the question', () => {
    const table = new SynonymTable(parseSolrSynonyms('年休, 有給休暇\n'))
    const query = analyzeQuery('年休は何日ありますか', table)
    const matches = passageMatches('有給休暇は入社時に10日付与されます。', query.words, query.alternates)
    expect(matches).toEqual({ words: ['日'], synonyms: [{ said: '有給休暇', for: '年休' }] })
  })

  it('finds nothing in a passage that does not say the question', () => {
    const query = analyzeQuery('保証期間は何年ですか', null)
    expect(passageMatches('電源ボタンを長押しします。', query.words)).toEqual({ words: [], synonyms: [] })
  })
})

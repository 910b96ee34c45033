import { describe, expect, it } from 'vitest'
import { analyzeQuery, type PassageEvidence, scorePassages } from '../passage-relevance.ts'
import { analyzeText } from '../tokenize.ts'
import { parseSolrSynonyms, SynonymFileError } from './solr-synonyms.ts'
import { sudachiSynonyms } from './sudachi-synonyms.ts'
import { SynonymTable } from './synonym-table.ts'

const passage = (id: string, text: string): PassageEvidence => ({
  id,
  words: analyzeText(text).words,
  bigramTf: [],
  bigramCount: 0,
  parentTf: [],
  parentWords: 0,
})

/** The passages ranked for a question (every word seen in 1 of 10 chunks), with or without synonyms. */
function ranked(question: string, passages: PassageEvidence[], synonyms: SynonymTable | null) {
  const query = analyzeQuery(question, synonyms)
  const words = [...query.words, ...query.alternates.flatMap((alternate) => alternate.words)]
  const stats = {
    chunks: 10,
    averageWords: 10,
    averageBigrams: 1,
    averageParentWords: 10,
    wordDf: new Map(words.map((word) => [word, 1])),
    bigramDf: new Map<string, number>(),
  }
  return scorePassages({ ...query, bigrams: [] }, stats, passages, { k1: 0.9, b: 0.75 })
}

describe('synonyms', () => {
  const handbook = [
    passage('holiday', '夏季休業は8月13日から16日までの4日です。'),
    passage('leave', '年次有給休暇は入社6か月後に10日付与されます。'),
  ]

  it('finds a paraphrase only through a synonym (有休 for 年次有給休暇), and not with them off', async () => {
    const sudachi = await sudachiSynonyms()
    const question = '有休は何日もらえますか'
    expect(ranked(question, handbook, sudachi).map((hit) => hit.id)).toEqual(['leave', 'holiday'])
    expect(ranked(question, handbook, null).map((hit) => hit.id)).toEqual(['holiday', 'leave'])
  })

  it('counts a word found through a synonym less than the word typed', async () => {
    const sudachi = await sudachiSynonyms()
    const [typed] = ranked('年次有給休暇は何日', [passage('leave', '年次有給休暇は10日です')], sudachi)
    const [through] = ranked('有休は何日', [passage('leave', '年次有給休暇は10日です')], sudachi)
    expect(through?.score).toBeLessThan(typed?.score ?? 0)
  })

  it('does not bring in the senses of an ambiguous word: 保証 is not searched as 担保 or 抵当', async () => {
    const sudachi = await sudachiSynonyms()
    expect(analyzeQuery('保証期間は何年ですか', sudachi).alternates.flatMap((a) => a.words)).not.toContain(
      '担保',
    )
    const loans = [passage('loan', '住宅ローンの担保として抵当権を設定します。')]
    expect(ranked('保証期間は何年ですか', loans, sudachi)[0]?.score).toBe(0)
  })

  it("adds a collection's own rules over the dictionary, one-way rules only one way", async () => {
    const own = new SynonymTable(parseSolrSynonyms('お試し期間, 無料体験期間\nPTO => 年次有給休暇\n'))
    const table = own.over(await sudachiSynonyms())
    const faq = [
      passage('cancel', '解約の受付期間は月末までです。'),
      passage('trial', '初めての方は14日間の無料体験期間があります。'),
    ]
    expect(ranked('お試し期間はありますか', faq, table)[0]).toMatchObject({ id: 'trial' })
    expect(ranked('お試し期間はありますか', faq, null)[0]).toMatchObject({ id: 'cancel' })
    expect(ranked('PTO days', handbook, table)[0]).toMatchObject({ id: 'leave' })
    expect(analyzeQuery('年次有給休暇', own).alternates).toEqual([])
  })
})

describe('a synonyms file', () => {
  it('reads rules, comments and escaped commas; cycles are applied one step', () => {
    const groups = parseSolrSynonyms('# jargon\n有休, 年次有給休暇\na => b\nb => a\nx\\,y, z\n')
    expect(groups).toHaveLength(4)
    const table = new SynonymTable(groups)
    expect(table.alternatesOf('a').map((alternate) => alternate.text)).toEqual(['b'])
    expect(table.alternatesOf('x,y').map((alternate) => alternate.text)).toEqual(['z'])
  })

  it('refuses what cannot be a rule, naming the line', () => {
    const refused = (text: string) => {
      try {
        parseSolrSynonyms(text)
        return null
      } catch (error) {
        expect(error).toBeInstanceOf(SynonymFileError)
        return (error as Error).message
      }
    }
    expect(refused('有休, 年次有給休暇\n\u0000\u0001PK\u0003\u0004')).toMatch(/^line 2: .*control/)
    expect(refused(`a, b\n${Array.from({ length: 5000 }, (_, i) => `w${i}`).join(', ')}`)).toMatch(
      /^line 2: 5000 words in one rule; at most 64/,
    )
    expect(refused('a =>\n')).toMatch(/^line 1: no words after/)
    expect(refused('alone\n')).toMatch(/^line 1: a rule needs two words/)
    expect(refused('a, b\n'.repeat(100_001))).toMatch(/at most 100000 are read/)
  })

  it('reads 100,000 rules in bounded time and memory (each line once)', () => {
    const text = Array.from({ length: 99_999 }, (_, i) => `term${i}, alias${i}`).join('\n')
    const table = new SynonymTable(parseSolrSynonyms(text))
    expect(table.alternatesOf('alias99998').map((alternate) => alternate.text)).toEqual(['term99998'])
  })
})

describe('what a collection’s rules may expand to', () => {
  const refused = (text: string) => {
    try {
      parseSolrSynonyms(text)
      return null
    } catch (error) {
      return (error as Error).message
    }
  }

  it('refuses, naming the line and the limit, rules that would give their words millions of alternates', () => {
    // 1,479 rules of 64 words (a megabyte): 6 million alternates, once minutes of a frozen gateway.
    const rule = (n: number) => Array.from({ length: 64 }, (_, i) => `w${n}x${i}`).join(', ')
    const text = Array.from({ length: 1479 }, (_, n) => rule(n)).join('\n')
    expect(refused(text)).toMatch(
      /^line \d+: the rules up to here give their words more than 250,000 alternates/,
    )
  })

  it('refuses a word that gathers more than 64 alternates over many rules', () => {
    const text = Array.from({ length: 70 }, (_, n) => `hub, spoke${n}`).join('\n')
    expect(refused(text)).toMatch(/^line 65: "hub" has more than 64 alternates/)
  })
})

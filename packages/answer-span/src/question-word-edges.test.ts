import { describe, expect, it } from 'vitest'
import { questionFrame } from './question-frame.ts'
import { withoutQuestionWordEdges } from './question-word-edges.ts'

describe('a span without the question’s words at its edges', () => {
  it('drops what a の joins on that the question already says', () => {
    expect(withoutQuestionWordEdges('本種の腸', questionFrame('最も長い本種の臓器とは何ですか?'))).toBe('腸')
    expect(withoutQuestionWordEdges('近視の進行', questionFrame('バイオレット光は何の進行を防ぐか?'))).toBe(
      '近視',
    )
  })

  it('keeps a name’s head noun, a span that would be left empty, and English as it is', () => {
    expect(withoutQuestionWordEdges('ワシントン大学', questionFrame('開発したのはどの大学ですか?'))).toBe(
      'ワシントン大学',
    )
    expect(withoutQuestionWordEdges('大好物の進行', questionFrame('大好物の進行は何?'))).toBe('大好物の進行')
    expect(withoutQuestionWordEdges('eight appearances', questionFrame('How many appearances?'))).toBe(
      'eight appearances',
    )
  })
})

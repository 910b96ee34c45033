import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { rankSpans } from '../short-answer.ts'
import { fitWeights, prepareExample } from './fit-span-model.ts'
import { squadExamples, trainingFiles } from './squad-examples.ts'

describe('fitting the span model', () => {
  it('learns from examples which candidates answer, and ranks a new sentence by what it learnt', () => {
    const examples = [
      { question: '工場は何人いますか', sentence: '東京工場には従業員が120人います。', answers: ['120人'] },
      { question: '支店は何人いますか', sentence: '大阪支店には社員が45人います。', answers: ['45人'] },
      { question: '倉庫は何人いますか', sentence: '横浜倉庫には作業員が8人います。', answers: ['8人'] },
    ].map((example) =>
      prepareExample({ ...example, sentences: [example.sentence], answerSentence: 0, article: 'a' }),
    )
    expect(examples.every((example) => example !== null)).toBe(true)
    const weights = fitWeights(
      examples.filter((example) => example !== null),
      { epochs: 20, learningRate: 0.3, l2: 0 },
    )
    const model = { version: 1 as const, fitted: {}, threshold: 0, weights }
    expect(rankSpans('本社は何人いますか', '名古屋本社には職員が300人います。', model)[0]?.text).toBe('300人')
    // Unfitted, every candidate is as likely as the next.
    const blank = { ...model, weights: {} }
    const ranked = rankSpans('本社は何人いますか', '名古屋本社には職員が300人います。', blank)
    expect(ranked[0]?.probability).toBeCloseTo(ranked.at(-1)?.probability ?? 0)
  })

  it('reads SQuAD-format files into the sentence holding each gold answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'span-fit-'))
    const file = join(dir, 'toy_train.json')
    const context = '最初の文です。保証期間は購入日から3年です。\n最後の行です。'
    writeFileSync(
      file,
      JSON.stringify({
        data: [
          {
            title: 'toy',
            paragraphs: [
              {
                context,
                qas: [
                  {
                    question: '保証期間は何年',
                    answers: [{ text: '3年', answer_start: context.indexOf('3年') }],
                  },
                ],
              },
            ],
          },
        ],
      }),
    )
    expect(squadExamples(trainingFiles([dir]))).toEqual([
      {
        question: '保証期間は何年',
        sentence: '保証期間は購入日から3年です。',
        sentences: ['最初の文です。', '保証期間は購入日から3年です。', '最後の行です。'],
        answerSentence: 1,
        answers: ['3年'],
        article: `${file}#toy`,
      },
    ])
  })

  it('refuses held-out files by name: dev, validation and test sets are never fitted on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'span-fit-'))
    writeFileSync(join(dir, 'valid-v1.3.json'), '{"data":[]}')
    expect(() => trainingFiles([dir])).toThrow(/never fitted on\): .*valid-v1\.3\.json/)
  })
})

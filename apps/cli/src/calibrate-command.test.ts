import { describe, expect, it } from 'vitest'
import { calibrationQuestions } from './calibrate-command.ts'

describe('a calibration file', () => {
  it('reads answerable questions with their source and unanswerable ones (source null or answerable false)', () => {
    const text = [
      '{"question": "有休は何日？", "source": "hr-faq.csv:r1"}',
      '',
      '{"question": "社宅はありますか", "source": null}',
      '{"question": "定年は何歳？", "answerable": false}',
    ].join('\n')
    expect(calibrationQuestions(text)).toEqual([
      { question: '有休は何日？', source: 'hr-faq.csv:r1' },
      { question: '社宅はありますか', source: null },
      { question: '定年は何歳？', source: null },
    ])
  })

  it('names the line that is not a question', () => {
    expect(() => calibrationQuestions('{"question": "a", "source": null}\nnot json')).toThrow(
      /^line 2: not JSON/,
    )
    expect(() => calibrationQuestions('{"source": "x"}')).toThrow(/^line 1: no "question"/)
    expect(() => calibrationQuestions('{"question": "a", "source": 3}')).toThrow(/line 1: "source" must be/)
  })
})

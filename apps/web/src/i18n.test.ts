import { QUESTION_STATUSES } from '@rag/api-contract/enums'
import { expect, it } from 'vitest'
import { questionStatusLabel, translator } from './i18n.ts'

it('names every question status in words in both languages: no raw identifier in the Japanese UI', () => {
  const ja = translator('ja')
  for (const status of QUESTION_STATUSES)
    expect(questionStatusLabel(ja, status), status).not.toMatch(/[A-Za-z]/)
  expect(questionStatusLabel(translator('en'), 'generating')).toBe('writing the answer')
  expect(ja('ask.status', { status: questionStatusLabel(ja, 'generating') })).toBe('状態: 回答を作成中')
})

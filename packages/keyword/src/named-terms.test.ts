import { expect, it } from 'vitest'
import { namedTerms } from './named-terms.ts'

it.each([
  ['JSQuADの訓練データは何件ですか', [['jsquad']]],
  ['XR-300の重さは？', [['xr', '300']]],
  ['GPT-4oとiOSの対応は', [['gpt', '4o'], ['io']]],
  ['Slackで通知できますか', [['slack']]],
])('%s names %j', (question, names) => {
  expect(namedTerms(question)).toEqual(names)
})

it.each([
  'When did the Broncos win the Super Bowl?',
  'What does NASA stand for?',
  'How heavy is the XR-300?',
  '2024年の売上はいくらですか',
  'What is the capital of France?',
])('%s names nothing by its letters alone', (question) => {
  expect(namedTerms(question)).toEqual([])
})

it.each([
  'アレクサンドリア市の総面積は何km2なの?',
  '島根半島と海士町は何km離れていますか?',
  '容量は128GBですか',
  '重さは何kgですか',
])('%s: a unit of measure is not a name', (question) => {
  expect(namedTerms(question)).toEqual([])
})

import { expect, it } from 'vitest'
import { configLabel, type EvaluationReport, renderMarkdown, renderTable } from './report.ts'
import type { ConfigResult } from './score-config.ts'

const config = (name: string, degraded: string[]) =>
  ({
    name,
    degraded,
    metrics: { 'hit@1': 1 },
    sweep: [],
    best: null,
    scale: 'evidence',
    failures: [],
  }) as unknown as ConfigResult

const report = {
  dataset: { name: 'faq', format: 'questions', documents: 3, questions: 4, answerable: 3 },
  fingerprint: 'x',
  settings: {
    chunkSize: 800,
    chunkOverlap: 100,
    parentMaxChars: 4000,
    topK: 5,
    searchK: 50,
    rerankTopK: 5,
    reranker: null,
    llm: null,
    embedding: null,
    refusalThreshold: 0.5,
    rerankRefusalThreshold: 0.5,
  },
  ingest: { seconds: 1, failed: [], reused: true },
  configs: [config('keyword', []), config('vector', ['vector']), config('hybrid+rerank', ['rerank'])],
} satisfies EvaluationReport

it('marks a config that ran without its model in the row itself, in the table and the report', () => {
  const rows = renderTable(report).split('\n')
  expect(rows.find((row) => row.startsWith('vector'))).toContain(
    'vector [ran degraded: no embedding model: keyword results]',
  )
  expect(rows.find((row) => row.startsWith('hybrid+rerank'))).toContain('[ran degraded: no reranker')
  expect(rows.find((row) => row.startsWith('keyword'))?.startsWith('keyword ')).toBe(true)
  expect(renderMarkdown(report)).toContain('## vector [ran degraded: no embedding model: keyword results]')
})

it('names a config as it is when it ran as named', () => {
  expect(configLabel({ name: 'hybrid', degraded: [] })).toBe('hybrid')
})

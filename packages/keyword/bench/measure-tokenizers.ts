import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { processEnvironment, testConfig } from '@rag/config'
import { Bm25Index } from '../src/bm25-index.ts'
import { type TokenizerKind, tokenize } from '../src/tokenize.ts'

// `pnpm --filter @rag/keyword measure`: MRR@10 and hit@5 of plain BM25 over JaQuAD dev (contexts
// as documents, questions as queries) for each tokenizer, to choose the one keyword search uses.
const { sharedDir } = testConfig.parse(processEnvironment()).test
const dir = join(sharedDir, 'data/jaquad-dev')
const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.json'))
if (files.length === 0) {
  console.log(`skipped: no JaQuAD data under ${dir} (set SHARED_DIR)`)
  process.exit(0)
}
interface Squad {
  data: { paragraphs: { context: string; qas: { question: string }[] }[] }[]
}
const contexts: string[] = []
const questions: { question: string; gold: number }[] = []
const seen = new Map<string, number>()
for (const file of files.sort()) {
  const squad = JSON.parse(await readFile(join(dir, file), 'utf8')) as Squad
  for (const article of squad.data) {
    for (const paragraph of article.paragraphs) {
      let id = seen.get(paragraph.context)
      if (id === undefined) {
        id = contexts.push(paragraph.context) - 1
        seen.set(paragraph.context, id)
      }
      for (const qa of paragraph.qas) questions.push({ question: qa.question, gold: id })
    }
  }
}
console.log(`JaQuAD dev: ${contexts.length} contexts, ${questions.length} questions`)
for (const kind of ['icu', 'bigram', 'icu+bigram'] as TokenizerKind[]) {
  for (const params of [
    { k1: 1.2, b: 0.75 },
    { k1: 0.9, b: 0.4 },
  ]) {
    const started = performance.now()
    const index = new Bm25Index(params)
    for (const context of contexts) index.add(tokenize(context, kind))
    let mrr = 0
    let hit5 = 0
    for (const { question, gold } of questions) {
      const rank = index.search(tokenize(question, kind), 10).findIndex((hit) => hit.doc === gold)
      if (rank >= 0) mrr += 1 / (rank + 1)
      if (rank >= 0 && rank < 5) hit5 += 1
    }
    const ms = Math.round(performance.now() - started)
    console.log(
      `${kind.padEnd(11)} k1=${params.k1} b=${params.b}  MRR@10 ${(mrr / questions.length).toFixed(3)}  hit@5 ${((100 * hit5) / questions.length).toFixed(1)}%  (${ms} ms)`,
    )
  }
}

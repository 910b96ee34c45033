import { basename, join } from 'node:path'
import { z } from 'zod'
import { type Dataset, DatasetError, utf8 } from '../dataset.ts'
import { documentFilename } from './qa-format.ts'
import { readJsonLines, readText } from './read-jsonl.ts'

const id = z.union([z.string(), z.number()]).transform(String)
const corpusLine = z.object({ _id: id, title: z.string().default(''), text: z.string() })
const queryLine = z.object({ _id: id, text: z.string().min(1) })

/** BEIR: corpus.jsonl, queries.jsonl and qrels/test.tsv (graded relevance); only judged queries are asked. */
export async function loadBeirDataset(dir: string): Promise<Dataset> {
  const qrelsPath = join(dir, 'qrels', 'test.tsv')
  const gold = new Map<string, Record<string, number>>()
  for (const [index, line] of (await readText(qrelsPath)).split('\n').entries()) {
    if (index === 0 || line.trim() === '') continue
    const [queryId, corpusId, score] = line.split('\t')
    const grade = Number(score)
    if (!queryId || !corpusId || !Number.isFinite(grade)) {
      throw new DatasetError(
        `${qrelsPath}:${index + 1}: expected query-id, corpus-id, score separated by tabs`,
      )
    }
    if (grade <= 0) continue
    gold.set(queryId, { ...gold.get(queryId), [corpusId]: grade })
  }
  const documents = (await readJsonLines(join(dir, 'corpus.jsonl'), corpusLine)).map((doc) => ({
    docId: doc._id,
    filename: documentFilename(doc._id),
    // One paragraph (a single line break): the title belongs to the text it heads, in one chunk
    // when the chunk size allows (a blank line would make the title a chunk of its own).
    data: utf8(doc.title ? `${doc.title}\n${doc.text}` : doc.text),
  }))
  const questions = (await readJsonLines(join(dir, 'queries.jsonl'), queryLine)).flatMap((query) => {
    const relevant = gold.get(query._id)
    return relevant ? [{ id: query._id, query: query.text, gold: relevant, keywords: [] }] : []
  })
  if (questions.length === 0) throw new DatasetError(`${qrelsPath}: no judged queries`)
  return { name: basename(dir), format: 'beir', documents, questions }
}

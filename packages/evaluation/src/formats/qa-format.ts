import { basename } from 'node:path'
import { z } from 'zod'
import { type Dataset, DatasetError, utf8 } from '../dataset.ts'
import { readJsonLines } from './read-jsonl.ts'

const question = z.object({
  question: z.string().trim().min(1),
  gold_doc_id: z.union([z.string(), z.number()]).nullable(),
  // Datasets write null where a field does not apply (rag-demo's qa.jsonl: subtype null).
  subtype: z.string().nullish(),
  expected_keywords: z.array(z.string()).nullish(),
})
const documentId = z.union([z.string().min(1), z.number()])
// Corpora name the id doc_id, id (most JSONL exports) or _id (BEIR, MongoDB exports).
const document = z
  .object({
    doc_id: documentId.optional(),
    id: documentId.optional(),
    _id: documentId.optional(),
    title: z.string().nullish(),
    text: z.string().min(1),
  })
  .transform(({ doc_id, id, _id, ...rest }) => ({ ...rest, docId: doc_id ?? id ?? _id }))
  .refine((doc) => doc.docId !== undefined, { message: 'a document needs an id: doc_id, id or _id' })

/** Safe, unique file names for dataset ids. */
export const documentFilename = (docId: string) => `${docId.replace(/[^A-Za-z0-9_.-]/g, '_')}.txt`

/** JSONL questions `{question, gold_doc_id | null, subtype?}` and a documents JSONL `{doc_id | id | _id, title, text}`. */
export async function loadQaDataset(path: string, docsPath: string | undefined): Promise<Dataset> {
  if (!docsPath) throw new DatasetError(`${path}: a qa dataset needs --docs FILE (its documents JSONL)`)
  const documents = (await readJsonLines(docsPath, document)).map((doc) => ({
    docId: String(doc.docId),
    filename: documentFilename(String(doc.docId)),
    // One paragraph (a single line break): the title belongs to the text it heads, in one chunk
    // when the chunk size allows (a blank line would make the title a chunk of its own).
    data: utf8(doc.title ? `${doc.title}\n${doc.text}` : doc.text),
  }))
  const known = new Set(documents.map((doc) => doc.docId))
  const questions = (await readJsonLines(path, question)).map((row, index) => {
    const gold = row.gold_doc_id === null ? null : String(row.gold_doc_id)
    if (gold !== null && !known.has(gold))
      throw new DatasetError(`${path}:${index + 1}: gold_doc_id ${gold} is not in ${docsPath}`)
    return {
      id: String(index + 1),
      query: row.question,
      gold: gold === null ? null : { [gold]: 1 },
      keywords: row.expected_keywords ?? [],
      ...(row.subtype ? { subtype: row.subtype } : {}),
    }
  })
  return { name: basename(path).replace(/\.jsonl$/, ''), format: 'qa', documents, questions }
}

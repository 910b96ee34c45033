import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { z } from 'zod'
import { type Dataset, DatasetError, type EvalDocument } from '../dataset.ts'
import { readJson } from './read-jsonl.ts'

const item = z.object({
  query: z.string().trim().min(1),
  expected_source: z.string().min(1).nullable(),
  expected_keywords: z
    .array(z.string())
    .nullish()
    .transform((keywords) => keywords ?? []),
  subtype: z.string().nullish(),
})

/** The file an expected source id belongs to: `guide.pdf:p3` → guide.pdf, `setup.md#a` → setup.md. */
export const fileOfSource = (sourceId: string) => sourceId.split(/[:#]/)[0] ?? sourceId

/** A JSON array of `{query, expected_source | null, expected_keywords[]}`; the documents are the files of `docsDir`. */
export async function loadQuestionsDataset(path: string, docsDir: string | undefined): Promise<Dataset> {
  if (!docsDir)
    throw new DatasetError(`${path}: a questions dataset needs --docs DIR (the files it asks about)`)
  // Uploaded with the documents, the questions would be a document that answers them.
  if (resolve(dirname(path)) === resolve(docsDir))
    throw new DatasetError(
      `${path}: the questions file is inside --docs ${docsDir}, so it would be ingested as a document; move it out of that folder`,
    )
  const raw = await readJson(path)
  if (!Array.isArray(raw)) throw new DatasetError(`${path}: expected a JSON array of questions`)
  const questions = raw.map((entry, index) => {
    const parsed = item.safeParse(entry)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new DatasetError(`${path}: question ${index + 1}: ${issue?.path.join('.')}: ${issue?.message}`)
    }
    const { query, expected_source, expected_keywords, subtype } = parsed.data
    return {
      id: String(index + 1),
      query,
      gold: expected_source ? { [fileOfSource(expected_source)]: 1 } : null,
      ...(expected_source ? { expectedSource: expected_source } : {}),
      keywords: expected_keywords,
      ...(subtype ? { subtype } : {}),
    }
  })
  let names: string[]
  try {
    names = (await readdir(docsDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name)
  } catch {
    throw new DatasetError(`${docsDir}: no such folder (--docs)`)
  }
  const documents: EvalDocument[] = []
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue
    documents.push({ docId: name, filename: name, data: await readFile(join(docsDir, name)) })
  }
  for (const question of questions) {
    for (const file of Object.keys(question.gold ?? {})) {
      if (!names.includes(file))
        throw new DatasetError(`${path}: question ${question.id} expects ${file}, which is not in ${docsDir}`)
    }
  }
  return { name: basename(path).replace(/\.json$/, ''), format: 'questions', documents, questions }
}

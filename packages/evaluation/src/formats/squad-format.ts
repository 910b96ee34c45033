import { readdir, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import { type Dataset, DatasetError, type EvalQuestion, utf8 } from '../dataset.ts'
import { readJson } from './read-jsonl.ts'

const squad = z.object({
  data: z.array(
    z.object({
      paragraphs: z.array(
        z.object({
          context: z.string(),
          qas: z.array(
            z.object({
              id: z.union([z.string(), z.number()]),
              question: z.string(),
              answers: z.array(z.object({ text: z.string() })).default([]),
              is_impossible: z.boolean().optional(),
            }),
          ),
        }),
      ),
    }),
  ),
})

/** The JSON files of a SQuAD-format dataset: the file itself, or every .json in the folder (JaQuAD ships four). */
export async function squadFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path]
  return (await readdir(path))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(path, name))
}

/**
 * SQuAD / JSQuAD / JaQuAD: each distinct context is a document, a question's gold is its context,
 * and its answers are the gold answer texts (any one is right).
 */
export async function loadSquadDataset(path: string): Promise<Dataset> {
  const contexts = new Map<string, string>()
  const questions: EvalQuestion[] = []
  for (const file of await squadFiles(path)) {
    const parsed = squad.safeParse(await readJson(file))
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new DatasetError(`${file}: not SQuAD format at ${issue?.path.join('.')}: ${issue?.message}`)
    }
    for (const article of parsed.data.data) {
      for (const paragraph of article.paragraphs) {
        let docId = contexts.get(paragraph.context)
        if (!docId) {
          docId = `ctx-${String(contexts.size + 1).padStart(5, '0')}`
          contexts.set(paragraph.context, docId)
        }
        for (const qa of paragraph.qas) {
          questions.push({
            id: String(qa.id),
            query: qa.question,
            gold: qa.is_impossible ? null : { [docId]: 1 },
            keywords: [],
            answers: [...new Set(qa.answers.map((answer) => answer.text.trim()).filter(Boolean))],
          })
        }
      }
    }
  }
  if (questions.length === 0) throw new DatasetError(`${path}: no questions found`)
  const documents = [...contexts].map(([context, docId]) => ({
    docId,
    filename: `${docId}.txt`,
    data: utf8(context),
  }))
  return { name: basename(path).replace(/\.json$/, ''), format: 'squad', documents, questions }
}

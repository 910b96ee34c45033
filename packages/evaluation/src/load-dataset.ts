import { access, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { DATASET_FORMATS, type Dataset, DatasetError, type DatasetFormat } from './dataset.ts'
import { loadBeirDataset } from './formats/beir-format.ts'
import { loadQaDataset } from './formats/qa-format.ts'
import { loadQuestionsDataset } from './formats/questions-format.ts'
import { readJson } from './formats/read-jsonl.ts'
import { loadSquadDataset, squadFiles } from './formats/squad-format.ts'

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  )

/** Which format a path holds: a BEIR folder, JSONL questions, a JSON array of questions, or SQuAD JSON. */
export async function detectFormat(path: string): Promise<DatasetFormat> {
  const info = await stat(path).catch(() => {
    throw new DatasetError(`${path}: no such file or folder`)
  })
  if (info.isDirectory()) {
    if (await exists(join(path, 'corpus.jsonl'))) return 'beir'
    if ((await squadFiles(path)).length > 0) return 'squad'
    throw new DatasetError(
      `${path}: a folder, but neither BEIR (corpus.jsonl) nor SQuAD (*.json); pass --format`,
    )
  }
  if (path.endsWith('.jsonl')) return 'qa'
  const json = await readJson(path)
  if (Array.isArray(json)) return 'questions'
  if (json && typeof json === 'object' && 'data' in json) return 'squad'
  throw new DatasetError(`${path}: cannot tell its format; pass --format ${DATASET_FORMATS.join('|')}`)
}

export async function loadDataset(
  path: string,
  { format = 'auto', docs }: { format?: DatasetFormat | 'auto'; docs?: string } = {},
): Promise<Dataset> {
  if (format !== 'auto' && !DATASET_FORMATS.includes(format)) {
    throw new DatasetError(
      `unknown format ${JSON.stringify(format)}: expected auto, ${DATASET_FORMATS.join(', ')}`,
    )
  }
  const resolved = format === 'auto' ? await detectFormat(path) : format
  switch (resolved) {
    case 'questions':
      return loadQuestionsDataset(path, docs)
    case 'qa':
      return loadQaDataset(path, docs)
    case 'squad':
      return loadSquadDataset(path)
    case 'beir':
      return loadBeirDataset(path)
  }
}

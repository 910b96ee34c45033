import { createHash } from 'node:crypto'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { readAozoraFile } from './aozora-text.ts'

/** What was read of a corpus folder so far. */
export interface CorpusTally {
  files: number
  /** Files that were not Shift_JIS text (skipped). */
  undecodable: number
  passages: number
  chars: number
}

/** The size a passage (a parent section) is cut to. */
const PASSAGE_CHARS = 1000

/**
 * What the folder holds, as one value: each text file's path, size and modification time. A
 * cached analysis of the folder stands only while this is unchanged (a file added, edited or
 * removed analyses it again). Stat only: seconds for the whole Aozora edition.
 */
export async function corpusFingerprint(dir: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const path of textFiles(dir)) {
    const { size, mtimeMs } = await stat(path)
    hash.update(`${relative(dir, path)}\0${size}\0${Math.trunc(mtimeMs)}\n`)
  }
  return hash.digest('hex').slice(0, 32)
}

async function* textFiles(dir: string): AsyncGenerator<string> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* textFiles(path)
    else if (entry.name.toLowerCase().endsWith('.txt')) yield path
  }
}

/**
 * Distinct real prose to mix in as distractors: the Aozora Bunko text edition in `dir` (e.g. a
 * checkout of aozorahack/aozorabunko_text, kept outside the repository), files in a fixed order,
 * paragraphs joined into passages of up to PASSAGE_CHARS. `tally` counts what was read.
 */
export async function* aozoraPassages(dir: string, tally: CorpusTally): AsyncGenerator<string> {
  for await (const path of textFiles(dir)) {
    const paragraphs = readAozoraFile(await readFile(path))
    if (!paragraphs) {
      tally.undecodable++
      continue
    }
    tally.files++
    let passage = ''
    const emit = () => {
      tally.passages++
      tally.chars += passage.length
      const done = passage
      passage = ''
      return done
    }
    for (const paragraph of paragraphs) {
      if (passage && passage.length + paragraph.length > PASSAGE_CHARS) yield emit()
      passage += paragraph.slice(0, PASSAGE_CHARS)
    }
    if (passage) yield emit()
  }
}

export const emptyTally = (): CorpusTally => ({ files: 0, undecodable: 0, passages: 0, chars: 0 })

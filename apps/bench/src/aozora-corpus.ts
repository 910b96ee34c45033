import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readAozoraFile } from './aozora-text.ts'

export interface DistractorCorpus {
  /** Passages of distinct prose, each at most PASSAGE_CHARS (a parent section's size). */
  passages: string[]
  files: number
  /** Files that were not Shift_JIS text (skipped). */
  undecodable: number
  chars: number
}

/** The size a passage (a parent section) is cut to. */
const PASSAGE_CHARS = 1000

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
 * paragraphs joined into passages of up to PASSAGE_CHARS, until `chars` characters are read.
 */
export async function readDistractorCorpus(dir: string, chars: number): Promise<DistractorCorpus> {
  const corpus: DistractorCorpus = { passages: [], files: 0, undecodable: 0, chars: 0 }
  for await (const path of textFiles(dir)) {
    if (corpus.chars >= chars) break
    const paragraphs = readAozoraFile(await readFile(path))
    if (!paragraphs) {
      corpus.undecodable++
      continue
    }
    corpus.files++
    let passage = ''
    for (const paragraph of paragraphs) {
      if (passage && passage.length + paragraph.length > PASSAGE_CHARS) {
        corpus.passages.push(passage)
        corpus.chars += passage.length
        passage = ''
      }
      passage += paragraph.slice(0, PASSAGE_CHARS)
    }
    if (passage) {
      corpus.passages.push(passage)
      corpus.chars += passage.length
    }
  }
  return corpus
}

import { createRequire } from 'node:module'
import { type SynonymGroup, SynonymTable } from './synonym-table.ts'

/** An entry of Sudachi's synonym dictionary as the npm package ships it (fields we read). */
interface SudachiEntry {
  /** 0: always expands; 1: is expanded to but does not expand (ambiguous alone); 2: never used. */
  expandControl: 0 | 1 | 2
  vocabularyNumber?: number
  midashi: string
}

let loaded: Promise<SynonymTable> | null = null

/**
 * Sudachi's synonym dictionary (WorksApplications, Apache-2.0; ~26,000 groups: orthographic
 * variants, abbreviations, loanwords and their English forms), as the `sudachi-synonyms-dictionary`
 * package ships it, read once per process (about a second; the parsed file is dropped after).
 * Its own expansion flags are kept: a word it marks as not expanding (保証, whose group is
 * 抵当/担保) is searched for through the others but never brings them in.
 */
export function sudachiSynonyms(): Promise<SynonymTable> {
  loaded ??= (async () => {
    // The package exports only its CommonJS entry (its ES one is missing from the published files).
    const { fetchDictionary } = createRequire(import.meta.url)('sudachi-synonyms-dictionary') as {
      fetchDictionary: () => Promise<readonly { items: SudachiEntry[] }[]>
    }
    return new SynonymTable(sudachiGroups(await fetchDictionary()))
  })()
  return loaded
}

function* sudachiGroups(groups: readonly { items: SudachiEntry[] }[]): Generator<SynonymGroup> {
  for (const group of groups) {
    yield {
      words: group.items
        .filter((item) => item.expandControl !== 2)
        .map((item) => ({
          text: item.midashi,
          lexeme: item.vocabularyNumber ?? 0,
          expands: item.expandControl === 0,
        })),
    }
  }
}

import { MAX_GROUP_WORDS, type SynonymGroup, synonymKey } from './synonym-table.ts'

/** What a synonyms file may hold: past these it is refused, saying where. */
export const SYNONYM_FILE_LIMITS = { lines: 100_000, wordChars: 100 }

export class SynonymFileError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`)
    this.name = 'SynonymFileError'
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFD]/

/**
 * A collection's own synonyms in Solr's format, one rule a line: `有休, 年次有給休暇` (each word
 * brings in the others) or `PTO, 有給 => 年次有給休暇` (the words on the left bring in those on the
 * right, and not the other way). `#` starts a comment. Rules are applied one step, so cycles
 * (`a => b`, `b => a`) are harmless. Refuses, naming the line, what cannot be a rule: binary
 * bytes, an empty side, a word over 100 characters, a group over 64 words, more than 100,000 lines.
 */
export function parseSolrSynonyms(text: string): SynonymGroup[] {
  const lines = text.split(/\r?\n/)
  if (lines.length > SYNONYM_FILE_LIMITS.lines)
    throw new SynonymFileError(
      `the file has ${lines.length} lines; at most ${SYNONYM_FILE_LIMITS.lines} are read`,
      SYNONYM_FILE_LIMITS.lines + 1,
    )
  const groups: SynonymGroup[] = []
  lines.forEach((raw, index) => {
    const number = index + 1
    if (CONTROL.test(raw))
      throw new SynonymFileError('holds control or undecodable characters (not a text file?)', number)
    const line = raw.replace(/(^|\s)#.*$/, '').trim()
    if (!line) return
    const sides = line.split('=>')
    if (sides.length > 2) throw new SynonymFileError('more than one "=>"', number)
    const [left, right] = sides.map((side) => wordsOf(side, number))
    if (!left || left.length === 0) throw new SynonymFileError('no words before "=>"', number)
    if (right !== undefined && right.length === 0) throw new SynonymFileError('no words after "=>"', number)
    const all = [...left, ...(right ?? [])]
    if (all.length > MAX_GROUP_WORDS)
      throw new SynonymFileError(`${all.length} words in one rule; at most ${MAX_GROUP_WORDS}`, number)
    if (right === undefined) {
      if (left.length < 2)
        throw new SynonymFileError('a rule needs two words or more ("a, b" or "a => b")', number)
      groups.push({ words: left.map((text) => ({ text, lexeme: 1, expands: true })) })
    } else {
      groups.push({
        oneWay: true,
        words: [
          ...left.map((text) => ({ text, lexeme: 1, expands: true })),
          ...right.map((text) => ({ text, lexeme: 1, expands: false })),
        ],
      })
    }
  })
  return groups
}

function wordsOf(side: string, line: number): string[] {
  const words = side
    .split(/(?<!\\),/)
    .map((word) => word.replace(/\\(.)/g, '$1').trim())
    .filter(Boolean)
  for (const word of words) {
    if ([...word].length > SYNONYM_FILE_LIMITS.wordChars)
      throw new SynonymFileError(`a word longer than ${SYNONYM_FILE_LIMITS.wordChars} characters`, line)
  }
  return [...new Set(words.map(synonymKey))]
}

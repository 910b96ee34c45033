import { MAX_GROUP_WORDS, type SynonymGroup, synonymKey } from './synonym-table.ts'

/**
 * What a synonyms file may hold: past these it is refused, saying where. `alternatesPerWord` and
 * `alternates` bound what the rules expand to (a rule of n words gives each word n − 1): 1,479
 * rules of 64 words, a megabyte, came to 6 million alternates, and building them froze every
 * search of every collection for minutes.
 */
export const SYNONYM_FILE_LIMITS = {
  lines: 100_000,
  wordChars: 100,
  alternatesPerWord: 64,
  alternates: 250_000,
}

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
  const expansion = expansionCounter()
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
      expansion.add(left, left, number)
      groups.push({ words: left.map((text) => ({ text, lexeme: 1, expands: true })) })
    } else {
      expansion.add(left, right, number)
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

/** Counts what the rules expand to as they are read, refusing the line that passes a limit. */
function expansionCounter() {
  const perWord = new Map<string, number>()
  let total = 0
  const { alternates, alternatesPerWord } = SYNONYM_FILE_LIMITS
  return {
    add(expanding: string[], targets: string[], line: number) {
      for (const word of expanding) {
        const count = targets.filter((target) => target !== word).length
        total += count
        if (total > alternates)
          throw new SynonymFileError(
            `the rules up to here give their words more than ${alternates.toLocaleString('en')} alternates in all, the most a collection's rules may (a rule of n words gives each n − 1: split large groups into smaller ones, or write one-way rules "a => b")`,
            line,
          )
        const own = (perWord.get(word) ?? 0) + count
        if (own > alternatesPerWord)
          throw new SynonymFileError(
            `"${word}" has more than ${alternatesPerWord} alternates over the rules up to here, the most one word may`,
            line,
          )
        perWord.set(word, own)
      }
    },
  }
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

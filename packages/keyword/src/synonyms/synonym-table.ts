/** A word of a synonym group, as its source writes it. */
export interface SynonymWord {
  text: string
  /** Words of one lexeme (variants, abbreviations, translations) share a number; near-synonyms differ. */
  lexeme: number
  /** Whether the word, typed in a question, brings in the others (a word too ambiguous to: false). */
  expands: boolean
}

/** A group of words that mean the same, or a one-way rule (`PTO => 年次有給休暇`). */
export interface SynonymGroup {
  words: SynonymWord[]
  /** One-way: only these words expand, into the group's other words (Solr's `a, b => c`). */
  oneWay?: boolean
}

/** A word to search for in place of one typed, and how much a match through it counts (0..1). */
export interface SynonymAlternate {
  text: string
  weight: number
}

/** How much a match through a synonym counts against the word typed. */
export const SYNONYM_WEIGHTS = {
  /** Another form of the same lexeme: 有給休暇 for 有休, パスワード for password. */
  sameLexeme: 0.8,
  /** A near-synonym of the group: 支払い for 決済. */
  sameGroup: 0.5,
}

/** Past this many words a group is a topic, not synonyms: its words do not expand. */
export const MAX_GROUP_WORDS = 64
/**
 * Near-synonyms (another lexeme of the group) only from groups this small: a large group gathers
 * senses (申請 with 申し出, 申告, 届け出 and 申し入れ), and each drifts from the question.
 */
export const MAX_NEAR_GROUP_WORDS = 10

/** Keys are compared NFKC-normalised and lower-cased, as the analyser reads text. */
export const synonymKey = (text: string) => text.normalize('NFKC').toLowerCase().trim()

/**
 * Synonym groups looked up by a word's written form: what each word typed may be searched as.
 * Later tables (a collection's own) come first and may add to or override a word's alternates.
 */
export class SynonymTable {
  private readonly alternates = new Map<string, SynonymAlternate[]>()

  /** `below`: a table consulted after this one (a collection's rules over the dictionary). */
  constructor(
    groups: Iterable<SynonymGroup>,
    private readonly below: SynonymTable | null = null,
  ) {
    for (const group of groups) this.add(group)
  }

  get size(): number {
    return this.alternates.size + (this.below?.size ?? 0)
  }

  private add(group: SynonymGroup) {
    if (group.words.length < 2 || group.words.length > MAX_GROUP_WORDS) return
    const targets = group.oneWay ? group.words.filter((word) => !word.expands) : group.words
    for (const word of group.words) {
      if (!word.expands) continue
      const key = synonymKey(word.text)
      if (!key) continue
      const list = this.alternates.get(key) ?? []
      for (const target of targets) {
        const text = synonymKey(target.text)
        if (!text || text === key || list.some((alternate) => alternate.text === text)) continue
        const sameLexeme = target.lexeme === word.lexeme
        if (!sameLexeme && group.words.length > MAX_NEAR_GROUP_WORDS) continue
        const weight = sameLexeme ? SYNONYM_WEIGHTS.sameLexeme : SYNONYM_WEIGHTS.sameGroup
        list.push({ text, weight })
      }
      if (list.length > 0) this.alternates.set(key, list)
    }
  }

  /** The alternates of a written form (none when the table does not hold it), this table's first. */
  alternatesOf(text: string): SynonymAlternate[] {
    const own = this.alternates.get(synonymKey(text)) ?? []
    const below = this.below?.alternatesOf(text) ?? []
    if (below.length === 0) return own
    return [...own, ...below.filter((alternate) => !own.some((mine) => mine.text === alternate.text))]
  }

  /** Every word's alternates, as plain data (to build the table in one thread and use it in another). */
  entries(): [string, SynonymAlternate[]][] {
    return [...this.alternates]
  }

  /** The table `entries()` gave. */
  static fromEntries(entries: Iterable<[string, SynonymAlternate[]]>): SynonymTable {
    const table = new SynonymTable([])
    for (const [key, list] of entries) table.alternates.set(key, list)
    return table
  }

  /** This table's groups over another: its alternates of a word first, then the other's. Nothing is copied. */
  over(other: SynonymTable | null): SynonymTable {
    if (!other || other.size === 0) return this
    const layered = new SynonymTable([], other)
    for (const [key, list] of this.alternates) layered.alternates.set(key, list)
    return layered
  }
}

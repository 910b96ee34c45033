/**
 * A batch (the pipeline's part) holds `batchSize` sections (SECTIONS_PER_PART) — more when they are
 * small, such as a CSV's rows, until it holds PART_MIN_CHARS characters, at most
 * PART_MAX_SECTIONS_FACTOR × batchSize sections: a million-row CSV is 3,000-odd parts, not 20,000,
 * each of them a round of database and queue work in every stage.
 */
export function batchIsFull(sections: number, chars: number, batchSize: number): boolean {
  if (sections < batchSize) return false
  return chars >= PART_MIN_CHARS || sections >= batchSize * PART_MAX_SECTIONS_FACTOR
}

const PART_MIN_CHARS = 32_000
const PART_MAX_SECTIONS_FACTOR = 20

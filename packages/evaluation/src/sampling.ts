import { createHash } from 'node:crypto'
import { seeded } from './seeded-random.ts'

/** A short stable hash of a JSON value (object keys in insertion order, as built here). */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16)
}

/**
 * `size` items drawn without replacement by a seeded shuffle, in their original order: the same
 * seed gives the same questions, spread over the whole dataset instead of its first articles.
 */
export function sampleOf<T>(items: T[], size: number, seed: number): T[] {
  if (size >= items.length) return items
  const random = seeded(seed)
  const indexes = items.map((_, index) => index)
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[indexes[i], indexes[j]] = [indexes[j] as number, indexes[i] as number]
  }
  const chosen = new Set(indexes.slice(0, size))
  return items.filter((_, index) => chosen.has(index))
}

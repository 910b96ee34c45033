import { describe, expect, it } from 'vitest'
import { chunkSections } from './chunk-sections.ts'
import { splitText } from './split-text.ts'

const english =
  'The lamp has five brightness levels. Hold the button to change the colour temperature. ' +
  'It charges over USB-C in about three hours. A full battery lasts up to eight hours.'
const japanese =
  '明るさは本体のタッチボタンで5段階に調整できます。ボタンを長押しすると色温度が切り替わります。' +
  '色温度は2700Kの電球色から6500Kの昼光色まで選べます。読書には5000K前後がおすすめです。'

describe('splitText', () => {
  it('keeps a short text whole', () => {
    expect(splitText('  short  ', { size: 50, overlap: 10 })).toEqual(['short'])
    expect(splitText('   ', { size: 50, overlap: 10 })).toEqual([])
  })

  it('never cuts an English word, and overlaps on whole words', () => {
    const chunks = splitText(english, { size: 60, overlap: 20 })
    const words = new Set(english.split(/\s+/).map((w) => w.replace(/[.,]$/, '')))
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(60)
      for (const word of chunk.split(/\s+/)) expect(words.has(word.replace(/[.,]$/, '')), word).toBe(true)
    }
    // Every word of the text is in some chunk.
    for (const word of words) expect(chunks.some((c) => c.includes(word))).toBe(true)
    expect(chunks.length).toBeGreaterThan(2)
  })

  it('cuts Japanese at sentence ends', () => {
    const chunks = splitText(japanese, { size: 60, overlap: 0 })
    for (const chunk of chunks.slice(0, -1)) expect(chunk.endsWith('。')).toBe(true)
    expect(chunks.join('')).toBe(japanese)
  })

  it('repeats the end of a Japanese chunk at the start of the next, from a sentence start', () => {
    const chunks = splitText(japanese, { size: 60, overlap: 40 })
    expect(chunks[1]?.startsWith('ボタンを長押し')).toBe(true)
  })

  it('terminates for every overlap, even one not smaller than the size', () => {
    const text = 'あ'.repeat(300)
    for (const overlap of [0, 1, 10, 49, 50, 51, 500, -5]) {
      const chunks = splitText(text, { size: 50, overlap })
      expect(chunks.length).toBeGreaterThan(0)
      expect(chunks.length).toBeLessThanOrEqual(300)
      expect(chunks.every((c) => c.length <= 50)).toBe(true)
    }
  })

  it('covers random texts completely for random sizes and overlaps', () => {
    const alphabet = ['a', 'b', ' ', '。', '\n', '語', '.', ' ']
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let round = 0; round < 200; round++) {
      const text = Array.from(
        { length: Math.floor(random() * 400) },
        () => alphabet[Math.floor(random() * 8)],
      ).join('')
      const size = 1 + Math.floor(random() * 80)
      const overlap = Math.floor(random() * 100)
      const chunks = splitText(text, { size, overlap })
      const visible = text.replace(/\s/g, '')
      const covered = chunks.join('').replace(/\s/g, '')
      for (const ch of new Set(visible)) expect(covered.includes(ch)).toBe(true)
      expect(chunks.every((c) => c.length <= size)).toBe(true)
    }
  })
})

describe('chunkSections', () => {
  it('gives every chunk its parent and its index inside it, and splits long sections into parents', () => {
    const { parents, chunks } = chunkSections(
      [
        { sourceId: 'a.pdf:p1', heading: null, units: [japanese] },
        { sourceId: 'faq.csv:r1', heading: null, units: ['質問: 海外で使えますか？\n回答: 使えます。'] },
      ],
      { size: 40, overlap: 0, parentMaxChars: 60 },
    )
    expect(parents.map((p) => [p.ordinal, p.sourceId])).toEqual([
      [0, 'a.pdf:p1'],
      [1, 'a.pdf:p1'],
      [2, 'faq.csv:r1'],
    ])
    expect(parents.every((p) => p.text.length <= 60)).toBe(true)
    expect(chunks.filter((c) => c.parentOrdinal === 2)).toEqual([
      {
        parentOrdinal: 2,
        chunkIndex: 0,
        sourceId: 'faq.csv:r1',
        text: '質問: 海外で使えますか？\n回答: 使えます。',
      },
    ])
    for (const chunk of chunks) {
      expect(parents[chunk.parentOrdinal]?.text).toContain(chunk.text)
    }
    const indexes = chunks.filter((c) => c.parentOrdinal === 0).map((c) => c.chunkIndex)
    expect(indexes).toEqual(indexes.map((_, i) => i))
  })

  it('packs neighbouring small units into one chunk up to the size, so a heading line is found with its text', () => {
    const { chunks } = chunkSections(
      [
        {
          sourceId: 'setup.md#pairing',
          heading: 'Pairing',
          units: ['Pairing', 'Hold the button.', '```\nE-21\n```'],
        },
      ],
      { size: 500, overlap: 100, parentMaxChars: 2000, firstOrdinal: 7 },
    )
    expect(chunks.map((c) => [c.parentOrdinal, c.chunkIndex, c.text])).toEqual([
      [7, 0, 'Pairing\n\nHold the button.\n\n```\nE-21\n```'],
    ])
  })

  it('starts a new chunk where the next unit would pass the size, and cuts a long unit on its own', () => {
    const small = (n: number) => `${'x'.repeat(n)}。`
    const long = 'これは長い文です。'.repeat(80)
    const { chunks } = chunkSections(
      [
        {
          sourceId: 'notes.txt:L1',
          heading: null,
          units: [small(200), small(200), small(200), long, small(10)],
        },
      ],
      { size: 500, overlap: 100, parentMaxChars: 5000 },
    )
    const texts = chunks.map((c) => c.text)
    expect(texts[0]).toBe(`${small(200)}\n\n${small(200)}`)
    expect(texts[1]).toBe(small(200))
    // The long unit alone, in sentence-cut pieces of at most the size; then the last small unit.
    const pieces = texts.slice(2, -1)
    expect(pieces.length).toBeGreaterThan(1)
    for (const piece of pieces) expect(piece.length).toBeLessThanOrEqual(500)
    expect(texts.at(-1)).toBe(small(10))
    expect(chunks.map((c) => c.chunkIndex)).toEqual(texts.map((_, index) => index))
  })

  it('never packs units of different parents together', () => {
    const { chunks } = chunkSections(
      [
        { sourceId: 'faq.csv:r1', heading: null, units: ['question: a'] },
        { sourceId: 'faq.csv:r2', heading: null, units: ['question: b'] },
      ],
      { size: 500, overlap: 100, parentMaxChars: 2000 },
    )
    expect(chunks.map((c) => [c.sourceId, c.text])).toEqual([
      ['faq.csv:r1', 'question: a'],
      ['faq.csv:r2', 'question: b'],
    ])
  })
})

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { analysedCorpus, readAnalysedCorpus } from './analysed-corpus-cache.ts'

// The distinct-corpus benchmarks analyse a large folder once (worker threads) and read it from the
// cache after: what a second run reads must be what the first analysed, in the corpus's order.
const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})
const scratch = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rag-corpus-cache-'))
  dirs.push(dir)
  return dir
}
// Plain ASCII is Shift_JIS too: a title, an author, a blank line, then the body.
const work = (name: string, sentences: number) =>
  new TextEncoder().encode(
    [
      name,
      'Anonymous',
      '',
      ...Array.from({ length: sentences }, (_, i) => `${name} line ${i} tells of harbour ${i}.`),
    ].join('\r\n'),
  )

describe('a distractor corpus analysed once', () => {
  it('reads every passage in order, counts the undecodable file, and is read from the cache after', async () => {
    const corpusDir = join(await scratch(), 'cards')
    const cacheDir = await scratch()
    await mkdir(join(corpusDir, 'b'), { recursive: true })
    await writeFile(join(corpusDir, 'a.txt'), work('Alpha', 40))
    await writeFile(join(corpusDir, 'b', 'c.txt'), work('Gamma', 3))
    await writeFile(join(corpusDir, 'b', 'broken.txt'), new Uint8Array([0x82, 0xff, 0xfd, 0x0a]))

    const first = await analysedCorpus(corpusDir, { cacheDir, chunkChars: 120 })
    expect(first).toMatchObject({ files: 2, undecodable: 1 })
    const passages = []
    for await (const passage of readAnalysedCorpus(first)) passages.push(passage)
    expect(passages.length).toBe(first.passages)
    expect(passages.reduce((sum, passage) => sum + passage.chunks.length, 0)).toBe(first.chunks)
    expect(passages[0]?.text.startsWith('Alpha line 0 tells')).toBe(true)
    expect(passages.at(-1)?.text).toContain('Gamma line 2')
    expect(passages.every((passage) => passage.chunks.every((chunk) => chunk.text.length <= 120))).toBe(true)
    expect(passages[0]?.chunks[0]?.words).toContain('harbour')

    // The folder gone, the same request is answered from the cache; another chunk size is not.
    await rm(corpusDir, { recursive: true })
    expect(await analysedCorpus(corpusDir, { cacheDir, chunkChars: 120 })).toEqual(first)
    await expect(analysedCorpus(corpusDir, { cacheDir, chunkChars: 60 })).rejects.toThrow(
      /no corpus folder at/,
    )
  })

  it('analyses only as far as a run needs, further when a run needs more, and again when the folder changed', async () => {
    const corpusDir = join(await scratch(), 'cards')
    const cacheDir = await scratch()
    await mkdir(corpusDir, { recursive: true })
    const names = 'abcdefghijkl'.split('')
    for (const name of names) await writeFile(join(corpusDir, `${name}.txt`), work(name.toUpperCase(), 30))
    const options = { cacheDir, chunkChars: 120, batch: 1 }

    const whole = await analysedCorpus(corpusDir, { ...options, cacheDir: await scratch() })
    const few = await analysedCorpus(corpusDir, { ...options, needChunks: 3 })
    expect(few.complete).toBe(false)
    expect(few.chunks).toBeGreaterThanOrEqual(3)
    expect(few.chunks).toBeLessThan(whole.chunks)
    expect(few.files).toBeLessThan(names.length)
    // Read back, it is the start of the whole analysis.
    const passages = []
    for await (const passage of readAnalysedCorpus(few)) passages.push(passage.text)
    expect(passages.length).toBe(few.passages)

    expect(await analysedCorpus(corpusDir, { ...options, needChunks: 2 })).toEqual(few)
    const more = await analysedCorpus(corpusDir, options)
    expect(more).toMatchObject({ complete: true, chunks: whole.chunks, files: names.length })

    // A file added (a newer checkout of the edition): the cache no longer stands.
    await writeFile(join(corpusDir, 'm.txt'), work('M', 30))
    const changed = await analysedCorpus(corpusDir, options)
    expect(changed.files).toBe(names.length + 1)
    expect(changed.fingerprint).not.toBe(more.fingerprint)
  })
})

import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { DocumentParseError, type ParsedSection, type SourceType } from '../parsed-section.ts'
import { deepHtml, inflatingPdf } from '../testing/hostile-files.ts'
import { createParseSandbox, type ParseSandbox } from './parse-in-sandbox.ts'

let dir: string
let sandbox: ParseSandbox
const file = async (name: string, data: Buffer | string) => {
  const path = join(dir, name)
  await writeFile(path, data)
  return path
}

async function batchesOf(path: string, sourceType: SourceType, options = {}, using = sandbox) {
  const batches: ParsedSection[][] = []
  for await (const batch of using.parse({ path, filename: 'f', sourceType, options, batchSize: 50 })) {
    batches.push(batch)
  }
  return batches
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected the parse to fail')
    },
    (error: Error) => error,
  )

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parse-sandbox-'))
  // A deadline no file here comes near on any machine, however loaded: a test of the deadline
  // makes a sandbox of its own, with a file that never ends.
  sandbox = createParseSandbox({ memoryMb: 512, timeoutMs: 120_000 })
})
afterAll(async () => {
  sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

describe('the parse sandbox', () => {
  it('hands sections over in batches of the requested size, more of them when they are small', async () => {
    const long = 'x'.repeat(700)
    const csv = await file(
      'rows.csv',
      `q,a\n${Array.from({ length: 120 }, (_, i) => `q${i},${long}${i}`).join('\n')}\n`,
    )
    const batches = await batchesOf(csv, 'csv')
    expect(batches.map((batch) => batch.length)).toEqual([50, 50, 20])
    expect(batches[2]?.at(-1)?.units).toEqual([`q: q119\na: ${long}119`])
    // Rows of a few characters: a part holds up to 20 × SECTIONS_PER_PART of them.
    const tiny = await file(
      'tiny.csv',
      `q,a\n${Array.from({ length: 1200 }, (_, i) => `q${i},a${i}`).join('\n')}\n`,
    )
    expect((await batchesOf(tiny, 'csv')).map((batch) => batch.length)).toEqual([1000, 200])
  })

  it('stops a file that runs past the memory cap, and the next file is parsed as usual', async () => {
    // A deadline far beyond the cap's reach, so on a loaded machine the cap, not the clock, stops it.
    const capped = createParseSandbox({ memoryMb: 512, timeoutMs: 120_000 })
    onTestFinished(() => capped.close())
    const bomb = await file('bomb.pdf', await inflatingPdf(256))
    const error = await failureOf(batchesOf(bomb, 'pdf', {}, capped))
    expect(error).toBeInstanceOf(DocumentParseError)
    expect(error.message).toBe('exceeded 512 MiB of memory (PARSE_MEMORY_MB)')
    const text = await file('ok.txt', 'still working')
    expect((await batchesOf(text, 'text', {}, capped)).flat()[0]?.units).toEqual(['still working'])
  })

  it('stops a file that runs past the deadline', async () => {
    // A named pipe nobody writes to: reading it never ends, so only the deadline can stop it (a
    // slow file would race the machine: on a fast one it could finish first).
    const endless = join(dir, 'endless.txt')
    execFileSync('mkfifo', [endless])
    const short = createParseSandbox({ memoryMb: 512, timeoutMs: 1000 })
    onTestFinished(() => short.close())
    const error = await failureOf(batchesOf(endless, 'text', {}, short))
    expect(error).toBeInstanceOf(DocumentParseError)
    expect(error.message).toBe('timed out after 1 s (PARSE_TIMEOUT_SECONDS)')
  })

  it("a file's own fault is a DocumentParseError with the parser's reason", async () => {
    const deep = await file('deep.html', deepHtml(10_000))
    const error = await failureOf(batchesOf(deep, 'html'))
    expect(error).toBeInstanceOf(DocumentParseError)
    expect(error.message).toMatch(/nests elements 10002 deep/)
    const missing = await failureOf(batchesOf(join(dir, 'gone.txt'), 'text'))
    expect(missing.message).toMatch(/the stored file is missing/)
  })
})

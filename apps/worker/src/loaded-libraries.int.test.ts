import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, expect, it } from 'vitest'

// A worker process loads the libraries of what it does, not of every package it imports: the
// model runtimes and document libraries cost 0.4–0.8 s of CPU and 40–60 MB each, in every one of
// the platform's processes that would load them unused (a chunk worker held 170 MB, now about 105).
// They are imported where they are used (a model loaded, a PDF read, a site crawled).
const HEAVY = [
  'node-llama-cpp',
  'openai',
  '@huggingface/transformers',
  'onnxruntime-node',
  'sharp',
  'pdfjs-dist',
  '@napi-rs/canvas',
  'cheerio',
  'exceljs',
  // The embedded Postgres is served by the supervisor alone; a worker connects to it over TCP.
  '@electric-sql/pglite',
]
const run = promisify(execFile)
const here = fileURLToPath(new URL('.', import.meta.url))
let scratch = ''
let register = ''

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rag-loaded-libraries-'))
  // A module hook that notes the package of every module resolved from node_modules.
  await writeFile(
    join(scratch, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/.][^/]*)\\//.exec(resolved.url.split('/node_modules/.pnpm/').at(-1) ?? '')
  if (name) appendFileSync(process.env.LOADED_LIBRARIES, name[1] + '\\n')
  return resolved
}
`,
  )
  register = join(scratch, 'register.mjs')
  await writeFile(
    register,
    `import { register } from 'node:module'\nregister(${JSON.stringify(pathToFileURL(join(scratch, 'hooks.mjs')).href)})\n`,
  )
})
afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true })
})

/** The packages a fresh process resolves while importing `files` (their wiring, nothing run). */
async function librariesLoadedBy(files: string[]): Promise<Set<string>> {
  const listing = join(scratch, 'loaded.txt')
  await writeFile(listing, '')
  const imports = files.map((file) => `await import(${JSON.stringify(pathToFileURL(join(here, file)).href)})`)
  await run(process.execPath, ['--import', 'tsx', '--import', register, '-e', imports.join('; ')], {
    cwd: here,
    env: { ...process.env, LOADED_LIBRARIES: listing },
  })
  return new Set((await readFile(listing, 'utf8')).split('\n').filter(Boolean))
}

// Every worker's wiring in one process (one tsx start, not five): a library any of them loads shows.
const WORKER_FILES = [
  'processes/ingestion-workers.ts',
  'processes/worker-embed.ts',
  'processes/worker-retrieve.ts',
  'processes/worker-rerank.ts',
  'processes/worker-llm.ts',
]

it('a worker process loads its queues and database, no model runtime or document library until one is used', async () => {
  const loaded = await librariesLoadedBy(WORKER_FILES)
  // The hook sees what the workers need, so an empty intersection below means something.
  expect([...loaded]).toEqual(expect.arrayContaining(['bullmq', 'pg']))
  expect(HEAVY.filter((name) => loaded.has(name))).toEqual([])
})

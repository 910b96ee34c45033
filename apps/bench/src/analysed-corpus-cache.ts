import { createHash } from 'node:crypto'
import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { createLogger } from '@rag/log'
import { type ModelThread, startModelThread } from '@rag/runtime'
import type { AnalysedPassage } from './analysed-passage.ts'
import { aozoraPassages, type CorpusTally, corpusFingerprint, emptyTally } from './aozora-corpus.ts'
import { loadAverage } from './machine-load.ts'

/** Bumped whenever the analysis or the reader changes what a cached corpus would hold. */
const ANALYSIS_VERSION = 2
/** Passages per message to an analysis thread. */
const BATCH = 200

/** A corpus folder analysed once and kept on disk: one passage (with its chunks) per line. */
export interface AnalysedCorpus extends CorpusTally {
  path: string
  chunks: number
  /** The folder as it was analysed (corpusFingerprint). */
  fingerprint: string
  /** Whether the whole folder was read, or only its first files, as far as a run needed. */
  complete: boolean
}

/**
 * The distractor corpus in `corpusDir` cut into chunks of about `chunkChars` and analysed as the
 * pipeline analyses text, from `cacheDir` when it was done before: the Japanese analyser reads
 * about 90k characters a second per core, so the whole Aozora edition (~280M characters) takes
 * about half an hour on 2 cores — once, not on every run. Analysed on every core (worker threads).
 * Only as far as `needChunks` (a run of 100k chunks reads a tenth of the edition); a cache of
 * fewer is extended by analysing again. The cache stands while the folder is unchanged.
 */
export async function analysedCorpus(
  corpusDir: string,
  {
    cacheDir,
    chunkChars,
    needChunks = Number.POSITIVE_INFINITY,
    batch: batchSize = BATCH,
  }: { cacheDir: string; chunkChars: number; needChunks?: number; batch?: number },
): Promise<AnalysedCorpus> {
  const key = createHash('sha256')
    .update(JSON.stringify([resolve(corpusDir), chunkChars, ANALYSIS_VERSION]))
    .digest('hex')
    .slice(0, 16)
  const path = join(cacheDir, `corpus-${key}.ndjson`)
  const summaryPath = `${path}.json`
  const cachedText = await readFile(summaryPath, 'utf8').catch(() => null)
  const cached = cachedText ? (JSON.parse(cachedText) as AnalysedCorpus) : null
  const present = (await stat(corpusDir).catch(() => null))?.isDirectory() === true
  if (!present) {
    // The folder moved or deleted: what was analysed of it is still a corpus to measure on.
    if (cached) {
      console.log(`no corpus folder at ${corpusDir}: measuring on its analysis cached at ${cached.path}`)
      return cached
    }
    throw new Error(
      `no corpus folder at ${corpusDir} (the Aozora Bunko text edition, e.g. a checkout of aozorahack/aozorabunko_text)`,
    )
  }
  const fingerprint = await corpusFingerprint(corpusDir)
  if (cached?.fingerprint === fingerprint && (cached.complete || cached.chunks >= needChunks)) return cached
  if (cached)
    console.log(
      cached.fingerprint !== fingerprint
        ? `${corpusDir} changed since it was analysed: analysing it again`
        : `the analysis cached of ${corpusDir} has ${cached.chunks} chunks, this run needs ${needChunks}: analysing further`,
    )
  await mkdir(cacheDir, { recursive: true })
  const tally = emptyTally()
  const threads = await startThreads(availableParallelism(), chunkChars)
  const partial = `${path}.partial`
  const out = createWriteStream(partial)
  let chunks = 0
  const started = performance.now()
  let reported = started
  try {
    // Batches analysed in parallel, written in the corpus's order (the cache must not depend on timing).
    const inFlight: Promise<AnalysedPassage[]>[] = []
    const writeOldest = async () => {
      for (const passage of (await inFlight.shift()) ?? []) {
        chunks += passage.chunks.length
        if (!out.write(`${JSON.stringify(passage)}\n`)) await once(out, 'drain')
      }
      if (performance.now() - reported > 30_000) {
        reported = performance.now()
        const seconds = (reported - started) / 1000
        console.log(
          `  analysed ${(tally.chars / 1e6).toFixed(0)}M characters (${tally.files} files, ${chunks} chunks) in ${seconds.toFixed(0)} s; load ${loadAverage()}`,
        )
      }
    }
    let batch: string[] = []
    let next = 0
    for await (const passage of aozoraPassages(corpusDir, tally)) {
      batch.push(passage)
      if (batch.length < batchSize) continue
      inFlight.push(
        (threads[next++ % threads.length] as ModelThread<string[], AnalysedPassage[]>).call(batch),
      )
      batch = []
      if (inFlight.length >= threads.length * 2) await writeOldest()
      // Enough for the run (every passage read so far is in a batch: the tally stays true).
      if (chunks >= needChunks) break
    }
    if (batch.length > 0) inFlight.push((threads[0] as ModelThread<string[], AnalysedPassage[]>).call(batch))
    while (inFlight.length > 0) await writeOldest()
    out.end()
    await once(out, 'finish')
  } finally {
    await Promise.all(threads.map((thread) => thread.close()))
  }
  await rename(partial, path)
  const complete = chunks < needChunks
  const corpus: AnalysedCorpus = { ...tally, chunks, path, fingerprint, complete }
  await writeFile(summaryPath, JSON.stringify(corpus))
  console.log(
    `analysed ${complete ? '' : `the first ${tally.files} files of `}${corpusDir} once (cached at ${path}, ${((await stat(path)).size / 1e9).toFixed(1)} GB) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  )
  return corpus
}

async function startThreads(count: number, chunkChars: number) {
  const logger = createLogger({ name: 'bench', level: 'warn' })
  const entry = new URL('./analyse-thread.ts', import.meta.url)
  return Promise.all(
    Array.from({ length: count }, () =>
      startModelThread<string[], AnalysedPassage[]>(entry, { chunkChars }, logger),
    ),
  )
}

/** The analysed passages of a cached corpus, in order, read as they are needed. */
export async function* readAnalysedCorpus(corpus: AnalysedCorpus): AsyncGenerator<AnalysedPassage> {
  const lines = createInterface({ input: createReadStream(corpus.path), crlfDelay: Number.POSITIVE_INFINITY })
  for await (const line of lines) if (line) yield JSON.parse(line) as AnalysedPassage
}

import type { BenchConfig } from '@rag/config'
import { type AnalysedCorpus, analysedCorpus, readAnalysedCorpus } from './analysed-corpus-cache.ts'
import { parentTerms } from './analysed-passage.ts'
import type { ChunkToStore, RealTextChunks } from './real-text-corpus.ts'

/**
 * The size distractor prose is cut to: the Aozora edition (~237M characters of prose) makes about
 * a million chunks at this size, Japanese chunks of the size many RAG systems use.
 */
export const DISTRACTOR_CHUNK_CHARS = 300

/** The distractor corpus in `dir`, analysed (once: see analysedCorpus), with what was read of it said. */
export async function distractorCorpus(
  config: Pick<BenchConfig, 'corpusCache'>,
  dir: string,
  /** Distractor chunks the largest size of the run needs (analysed no further). */
  needChunks: number,
) {
  const corpus = await analysedCorpus(dir, {
    cacheDir: config.corpusCache,
    chunkChars: DISTRACTOR_CHUNK_CHARS,
    needChunks,
  })
  console.log(
    `distractors from ${dir}${corpus.complete ? '' : ' (its first files, as many as needed)'}: ${corpus.files} files, ${corpus.passages} passages, ${(corpus.chars / 1e6).toFixed(1)}M characters, ${corpus.chunks} chunks of ~${DISTRACTOR_CHUNK_CHARS} characters; ${corpus.undecodable} undecodable files skipped`,
  )
  return corpus
}

/**
 * No copies: the real chunks (whose questions are asked) first, then the distractor corpus's, each
 * chunk once, each passage its own parent.
 */
export async function* distinctChunks(
  base: RealTextChunks,
  corpus: AnalysedCorpus,
): AsyncGenerator<ChunkToStore> {
  for (const chunk of base.chunks) {
    const parent = base.parents[chunk.passage]
    if (parent) yield { chunk, passage: chunk.passage, parent }
  }
  let passage = base.parents.length
  for await (const analysed of readAnalysedCorpus(corpus)) {
    const parent = { text: analysed.text, ...parentTerms(analysed.chunks) }
    for (const chunk of analysed.chunks) yield { chunk, passage, parent }
    passage++
  }
}

/** How many distinct chunks there are: larger sizes are measured at this. */
export const distinctCount = (base: RealTextChunks, corpus: AnalysedCorpus) =>
  base.chunks.length + corpus.chunks

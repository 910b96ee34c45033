import type { EmbedderPreset, LlmPreset, RerankerPreset } from '@rag/config'
import { loadTransformersEmbedder } from '@rag/embeddings'
import { loadLlamaGenerator } from '@rag/llm'
import type { Logger } from '@rag/log'
import { shapeTrueDecoder, shapeTrueEncoder } from '@rag/model-shapes'
import { loadCrossEncoder } from '@rag/reranking'
import type { JapaneseTexts } from './japanese-texts.ts'
import { percentile } from './percentile.ts'

export interface InferenceBench {
  cacheDir: string
  tokenizerDir: string
  texts: JapaneseTexts
  logger: Logger
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const timed = async <T>(work: () => Promise<T>) => {
  const started = performance.now()
  const value = await work()
  return { value, ms: performance.now() - started }
}

/** Repeats a measurement `runs` times, or fewer when a budget of time is spent (slow models). */
async function repeat(runs: number, budgetMs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  const started = performance.now()
  while (times.length < runs && (times.length === 0 || performance.now() - started < budgetMs))
    times.push((await timed(work)).ms)
  return times
}

/** Chunks/s on 500-character Japanese chunks (in the worker's batches) and query latency. */
export async function benchEmbedder(bench: InferenceBench, preset: EmbedderPreset, threads: number) {
  const { modelsDir, model } = await shapeTrueEncoder({ ...bench, preset, head: 'hidden-states' })
  const embedder = await loadTransformersEmbedder({
    model,
    dim: preset.dim,
    modelsDir,
    allowDownload: false,
    logger: bench.logger,
    dtype: preset.weights.dtype,
    recipe: preset.recipe,
    threads,
  })
  try {
    const chunks = Array.from(
      { length: 48 },
      (_, i) => bench.texts.passages[i % bench.texts.passages.length] ?? '',
    )
    await embedder.embedPassages(chunks.slice(0, 2))
    const { ms } = await timed(() => embedder.embedPassages(chunks))
    const queries = await repeat(20, 20_000, () => embedder.embedQuery(bench.texts.questions[0] ?? '質問'))
    console.log(
      `  ${preset.id} (${threads} thread${threads > 1 ? 's' : ''}): ${(chunks.length / (ms / 1000)).toFixed(1)} chunks/s; query p50 ${percentile(queries, 50).toFixed(0)} ms`,
    )
  } finally {
    await embedder.close?.()
  }
}

/** Latency of scoring the top 10 and top 20 (question, Japanese passage) pairs. */
export async function benchReranker(bench: InferenceBench, preset: RerankerPreset, threads: number) {
  const { modelsDir, model } = await shapeTrueEncoder({ ...bench, preset, head: 'classifier' })
  const reranker = await loadCrossEncoder({
    model,
    modelsDir,
    allowDownload: false,
    logger: bench.logger,
    dtype: preset.weights.dtype,
    threads,
  })
  try {
    const question = bench.texts.questions[0] ?? '質問'
    const pairs = (count: number) =>
      Array.from({ length: count }, (_, i) => bench.texts.passages[i % bench.texts.passages.length] ?? '')
    await reranker.score(question, pairs(1))
    const figures: string[] = []
    for (const count of [10, 20]) {
      const times = await repeat(3, 30_000, () => reranker.score(question, pairs(count)))
      figures.push(`top-${count} p50 ${seconds(percentile(times, 50))} (n=${times.length})`)
    }
    console.log(`  ${preset.id} (${threads} thread${threads > 1 ? 's' : ''}): ${figures.join(', ')}`)
  } finally {
    await reranker.close()
  }
}

/**
 * Prompt processing and generation speed for a grounded Japanese prompt: three passages of
 * `passageChars` characters and a question, `maxTokens` generated (random weights rarely stop
 * early, so generation runs to the limit: the worst case of an answer that long).
 */
export async function benchLlm(
  bench: InferenceBench,
  preset: LlmPreset,
  { threads, contextSize, maxTokens }: { threads: number; contextSize: number; maxTokens: number },
) {
  const load = await timed(() => loadShapeTrueLlm(bench, preset, { contextSize, threads }))
  const generator = load.value
  try {
    for (const passageChars of [500, 2000]) {
      // A parent of 2000 characters: four different 500-character paragraphs in a row.
      const pieces = passageChars / 500
      const all = bench.texts.passages
      const passages = [0, 1, 2].map((i) =>
        Array.from({ length: pieces }, (_, j) => all[(i * pieces + j) % all.length]).join(''),
      )
      const prompt = `${passages.map((text, i) => `[${i + 1}] ${text}`).join('\n\n')}\n\n質問: ${bench.texts.questions[0] ?? ''}`
      let firstText = 0
      const started = performance.now()
      const result = await generator.generate({
        system: '資料だけに基づいて日本語で答え、出典を [1] のように示してください。',
        prompt,
        maxTokens,
        temperature: 0,
        onText: () => {
          firstText ||= performance.now()
        },
      })
      const ended = performance.now()
      const toFirst = firstText - started
      console.log(
        `  ${preset.file} (${threads} thread${threads > 1 ? 's' : ''}, 3 × ${passageChars} chars): prompt ${result.promptTokens} tokens, ` +
          `first token after ${seconds(toFirst)} (${(result.promptTokens / (toFirst / 1000)).toFixed(0)} tokens/s), ` +
          `${result.completionTokens} tokens at ${(result.completionTokens / ((ended - firstText) / 1000)).toFixed(1)} tokens/s, answer in ${seconds(ended - started)}`,
      )
    }
  } finally {
    await generator.close()
  }
  return load.ms
}

/** The preset's shape-true GGUF (generated once) loaded as the LLM worker loads a model: one sequence. */
export async function loadShapeTrueLlm(
  bench: InferenceBench,
  preset: LlmPreset,
  options: { contextSize: number; threads: number; reusePrompts?: boolean },
) {
  return loadLlamaGenerator({
    model: await shapeTrueDecoder({ cacheDir: bench.cacheDir, preset }),
    modelsDir: '/',
    allowDownload: false,
    sequences: 1,
    logger: bench.logger,
    ...options,
  })
}

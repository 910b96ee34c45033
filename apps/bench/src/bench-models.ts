import { availableParallelism, cpus, loadavg } from 'node:os'
import {
  type BenchProcessConfig,
  type EmbedderPreset,
  findPreset,
  type LlmPreset,
  MODEL_PRESETS,
  type RerankerPreset,
} from '@rag/config'
import { findSharedTokenizer } from '@rag/embeddings/testing'
import { createLogger } from '@rag/log'
import { benchLlmPolicies } from './bench-llm-policies.ts'
import { benchAskThroughWorkers } from './bench-model-ask.ts'
import { benchEmbedder, benchLlm, benchReranker, type InferenceBench } from './bench-model-inference.ts'
import { japaneseTexts } from './japanese-texts.ts'

const SECTIONS = ['embedder', 'reranker', 'llm', 'policies', 'ask'] as const
/** Sections run only when named: `fair` (one asker behind another's burst). */
const NAMED_ONLY = ['fair'] as const

const presetOf = <T>(id: string | null, task: string, fallback: string) =>
  ((id && findPreset(id)?.task === task ? findPreset(id) : undefined) ?? findPreset(fallback)) as T

/**
 * `pnpm bench models [embedder|reranker|llm|policies|ask|fair …]`: what the real models cost on this machine,
 * measured with shape-true random-weight copies (generated once into BENCH_MODEL_CACHE): embedder
 * chunks/s, reranker top-10/20 latency per preset, LLM prompt and generation speed, and
 * POST /ask → done through the workers with peak memory. At the product's default thread budgets
 * and with every core, so the defaults can be judged.
 */
export async function benchModels(config: BenchProcessConfig, args: string[]): Promise<void> {
  const sections: string[] = args.length > 0 ? args : [...SECTIONS]
  const unknown = sections.filter((section) => ![...SECTIONS, ...NAMED_ONLY].includes(section as never))
  if (unknown.length > 0)
    throw new Error(
      `unknown section ${unknown.join(', ')}: pnpm bench models [${[...SECTIONS, ...NAMED_ONLY].join('|')} …]`,
    )
  const { dir: tokenizerDir, found } = await findSharedTokenizer(config.bench.sharedDir)
  if (!found) {
    console.log(`no tokenizer under SHARED_DIR (${config.bench.sharedDir}): nothing measured`)
    return
  }
  const cores = availableParallelism()
  console.log(
    `machine: ${cores} cores (${cpus()[0]?.model.trim()}), load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ` +
      `defaults here: ONNX_THREADS ${config.models.onnxThreads}, LLM_THREADS ${config.generation.threads}`,
  )
  const texts = await japaneseTexts(config.bench.sharedDir, 500)
  console.log(
    `text: ${texts.source}, 500 characters each; tokenizer: all-MiniLM-L6-v2 (a real WordPiece: about one token per Japanese character, so pairs fill the 512-token window as long real ones do)`,
  )
  const bench: InferenceBench = {
    cacheDir: config.bench.modelCache,
    tokenizerDir,
    texts,
    logger: createLogger({ name: 'bench', level: 'warn' }),
  }
  const threadSettings = [...new Set([config.models.onnxThreads, cores])]
  const embedder = presetOf<EmbedderPreset>(
    config.models.embedding.model,
    'embedding',
    'Xenova/multilingual-e5-small',
  )
  const reranker = presetOf<RerankerPreset>(
    config.models.reranker,
    'reranking',
    'hotchpotch/japanese-reranker-xsmall-v2',
  )
  const llm = presetOf<LlmPreset>(
    config.models.llm,
    'generation',
    'hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M',
  )

  if (sections.includes('embedder')) {
    console.log('embedder (shape-true):')
    for (const threads of threadSettings) await benchEmbedder(bench, embedder, threads)
  }
  if (sections.includes('reranker')) {
    console.log('rerankers (shape-true), question + 500-character passages:')
    for (const preset of MODEL_PRESETS.filter((p): p is RerankerPreset => p.task === 'reranking'))
      for (const threads of threadSettings) await benchReranker(bench, preset, threads)
  }
  if (sections.includes('llm')) {
    console.log(`LLM (shape-true), LLM_CONTEXT_SIZE ${config.generation.contextSize}:`)
    for (const threads of [...new Set([config.generation.threads, cores])]) {
      const loadMs = await benchLlm(bench, llm, {
        threads,
        contextSize: config.generation.contextSize,
        maxTokens: 160,
      })
      console.log(`  (loaded in ${(loadMs / 1000).toFixed(1)} s)`)
    }
  }
  if (sections.includes('policies')) {
    console.log(`LLM (shape-true) policies: the instructions read once, the CPU shared with ingestion:`)
    await benchLlmPolicies(bench, llm, { contextSize: config.generation.contextSize })
  }
  for (const section of ['ask', 'fair'] as const) {
    if (!sections.includes(section)) continue
    console.log(
      `POST /ask through the question workers (${embedder.id}, ${reranker.id}, ${llm.file}), at the installation's defaults${section === 'fair' ? ': one key asking behind another key’s burst' : ''}:`,
    )
    await benchAskThroughWorkers(
      config.bench,
      bench,
      { embedder, reranker, llm },
      { chunks: 10_000, questions: 5, maxTokens: 160, ...(section === 'fair' ? { only: section } : {}) },
    )
  }
}

import { readdir, readFile } from 'node:fs/promises'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import type { BenchConfig, EmbedderPreset, LlmPreset, RerankerPreset } from '@rag/config'
import { createTestGateway, keywordOnlySearch, serverSentEvents } from '@rag/http-api/testing'
import { shapeTrueDecoder, shapeTrueEncoder } from '@rag/model-shapes'
import { workersOf } from '@rag/process-catalog'
import type { InferenceBench } from './bench-model-inference.ts'
import { closeRun, openRun, type Run, startWorkers } from './bench-run.ts'
import { buildVectorIndex, documentFrequencies, LEXICAL_DIM, lexicalVectors } from './lexical-vectors.ts'
import { percentile } from './percentile.ts'
import { insertRealTextChunks, realTextChunks } from './real-text-corpus.ts'

const QUESTION_WORKERS = workersOf('question')
/** The parents the product makes of a long document (PARENT_MAX_CHARS). */
const PARENT_CHARS = 2000

/** What a person sees of one question, from POST /ask, in milliseconds. */
interface Timeline {
  /** The provisional (extractive) answer, or the first token, or the finished answer: the first to come. */
  firstUseful: number
  firstToken: number | null
  done: number
  failed: boolean
}

/** Japanese documents cut as the product cuts them: JaQuAD's paragraphs, article by article, in 2,000-character parents. */
async function japaneseParents(sharedDir: string) {
  const dir = join(sharedDir, 'data/jaquad-dev')
  const parents: string[] = []
  const questions: string[] = []
  for (const file of (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()) {
    const data = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      data: { paragraphs: { context: string; qas: { question: string }[] }[] }[]
    }
    for (const article of data.data) {
      let parent = ''
      for (const paragraph of article.paragraphs) {
        questions.push(...paragraph.qas.map((qa) => qa.question))
        if (parent && [...parent].length + [...paragraph.context].length > PARENT_CHARS) {
          parents.push(parent)
          parent = ''
        }
        parent += paragraph.context
      }
      if (parent) parents.push(parent)
    }
  }
  return { parents, questions }
}

/** Follows one question's event stream from POST /ask, noting when each kind of content first came. */
async function askAndFollow(
  app: { request: (path: string, init?: RequestInit) => Response | Promise<Response> },
  question: string,
  /** Whose question it is (a key of the gateway's API_KEY); none: the gateway's one local user. */
  key?: string,
): Promise<Timeline> {
  const started = performance.now()
  const auth: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {}
  const response = await app.request('/ask', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth },
    // The installation's defaults: what a user asking without options gets.
    body: JSON.stringify({ question }),
  })
  const { id } = (await response.json()) as { id: string }
  const stream = await app.request(`/ask/${id}/events`, { headers: auth })
  const timeline: Timeline = { firstUseful: Number.NaN, firstToken: null, done: Number.NaN, failed: false }
  const since = () => performance.now() - started
  for await (const { event, data } of serverSentEvents(stream.body)) {
    if (event === 'provisional' || event === 'token' || event === 'done')
      if (Number.isNaN(timeline.firstUseful)) timeline.firstUseful = since()
    if (event === 'token' && timeline.firstToken === null) timeline.firstToken = since()
    if (event === 'done') {
      timeline.done = since()
      timeline.failed = data.status === 'failed' || data.status === 'cancelled'
    }
  }
  return timeline
}

const seconds = (values: number[], p: number) =>
  values.length === 0 ? '–' : `${(percentile(values, p) / 1000).toFixed(1)} s`

function report(label: string, timelines: Timeline[], { provisional = true } = {}) {
  const tokens = timelines.flatMap((t) => (t.firstToken === null ? [] : [t.firstToken]))
  // Before this round nothing came before the LLM's first token.
  const useful = provisional ? timelines.map((t) => t.firstUseful) : tokens
  const done = timelines.map((t) => t.done)
  console.log(
    `  ${label}: first useful content p50 ${seconds(useful, 50)} / p95 ${seconds(useful, 95)}; ` +
      `LLM first token p50 ${seconds(tokens, 50)} / p95 ${seconds(tokens, 95)}; ` +
      `full answer p50 ${seconds(done, 50)} / p95 ${seconds(done, 95)}; ` +
      `${timelines.filter((t) => t.failed).length} of ${timelines.length} failed | load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  )
}

/**
 * POST /ask → what a person sees, through the real question workers as processes, each running its
 * shape-true model with the product's default threads, over 10,000 chunks of real Japanese text
 * in 2,000-character parents (stand-in vectors: search's own cost is `pnpm bench ask`'s): the
 * first useful content (the provisional extractive answer), the LLM's first token and the full
 * answer, p50 and p95, one question at a time and ten at once, at the default context budget
 * and with whole parents (and as the product stood before this round: whole parents at half the
 * cores, no answer before the LLM's).
 */
export async function benchAskThroughWorkers(
  config: BenchConfig,
  bench: InferenceBench,
  models: { embedder: EmbedderPreset; reranker: RerankerPreset; llm: LlmPreset },
  { chunks, maxTokens, only }: { chunks: number; questions: number; maxTokens: number; only?: 'fair' },
) {
  const embedder = await shapeTrueEncoder({ ...bench, preset: models.embedder, head: 'hidden-states' })
  const reranker = await shapeTrueEncoder({ ...bench, preset: models.reranker, head: 'classifier' })
  const gguf = await shapeTrueDecoder({ cacheDir: bench.cacheDir, preset: models.llm })
  const japanese = await japaneseParents(config.sharedDir)
  const base = realTextChunks({ passages: japanese.parents, questions: japanese.questions })
  const documents = documentFrequencies(base.chunks.map((chunk) => chunk.words))
  const { vectorOf } = lexicalVectors(documents, base.chunks.length)
  const run = await openRun(config, 'models', { model: embedder.model, dim: LEXICAL_DIM })
  try {
    await run.pool.query('DROP INDEX chunks_embedding_hnsw_idx')
    await insertRealTextChunks(run.pool, base, { count: chunks, vectorOf, sectionText: true })
    await buildVectorIndex(run.pool)
    console.log(
      `  ${chunks} chunks of JaQuAD text in ${base.parents.length} real ${PARENT_CHARS}-character parents (replicated with light perturbation past ${base.chunks.length}); ${maxTokens}-token answers`,
    )
    // Questions of the same text; a different one for every ask (no answer is cached anywhere).
    const asked = japanese.questions.filter((_, i) => i % 7 === 0)
    let next = 0
    const scenario = async (
      label: string,
      env: Record<string, string>,
      {
        oneAtATime,
        atOnce,
        provisional = true,
        behindBurst = 0,
      }: {
        oneAtATime: number
        atOnce: number
        provisional?: boolean
        /** Questions another key asks one after another while a key's burst of `atOnce` is answered. */
        behindBurst?: number
      },
    ) => {
      const workers = startWorkers(
        config,
        run,
        embedder.modelsDir,
        embedder.model,
        {
          EMBEDDING_DIM: String(LEXICAL_DIM),
          EMBEDDING_DTYPE: models.embedder.weights.dtype,
          RERANKER_MODEL: reranker.model,
          RERANKER_DTYPE: models.reranker.weights.dtype,
          LLM_MODEL: gguf,
          LLM_MAX_TOKENS: String(maxTokens),
          // Every question is answered (random weights would make any threshold arbitrary).
          REFUSAL_THRESHOLD: '0',
          RERANK_REFUSAL_THRESHOLD: '0',
          ...env,
        },
        QUESTION_WORKERS,
      )
      const retrieval = { ...keywordOnlySearch.retrieval, refusalThreshold: 0, rerankRefusalThreshold: 0 }
      const gateway = await createTestGateway(
        {
          pool: run.pool,
          producer: run.producer,
          logger: bench.logger,
          redisUrl: config.redisUrl,
          prefix: run.prefix,
        },
        { uploadDir: '/nonexistent', maxBytes: 1, maxFiles: 1 },
        // The installation's own defaults decide the options (rerank follows RERANK_BY_DEFAULT).
        {
          retrieval,
          models: { reranker: reranker.model, llm: gguf, rerankByDefault: env.RERANK_BY_DEFAULT !== 'false' },
          // Two askers (two keys) when one asks behind the other's burst.
          ...(behindBurst > 0
            ? { access: { apiKeys: BENCH_KEYS, corsOrigins: [], askPerMinute: 0, uploadsPerMinute: 0 } }
            : {}),
        },
      )
      try {
        await workersReady(run)
        // The first question waits for the models to load; it is not counted.
        const [burstKey, loneKey] = behindBurst > 0 ? BENCH_KEYS : []
        await askAndFollow(gateway.app, asked[next++] ?? '質問', burstKey)
        if (behindBurst > 0) {
          // The baseline, in the same run: the second key's questions with nothing else asked.
          const alone: Timeline[] = []
          for (let i = 0; i < 3; i++)
            alone.push(await askAndFollow(gateway.app, asked[next++] ?? '質問', loneKey))
          report(`${label}, the same key's questions alone (3, one at a time)`, alone)
          // One key asks ten at once; once the LLM is writing its first, another key asks its
          // questions one after another, each when the last was answered.
          const burst = Promise.all(
            Array.from({ length: atOnce }, () =>
              askAndFollow(gateway.app, asked[next++] ?? '質問', burstKey),
            ),
          )
          await firstAnswerBeingWritten(run)
          const lone: Timeline[] = []
          for (let i = 0; i < behindBurst; i++)
            lone.push(await askAndFollow(gateway.app, asked[next++] ?? '質問', loneKey))
          report(
            `${label}, another key's questions behind a ${atOnce}-question burst (${behindBurst}, one at a time)`,
            lone,
          )
          report(`${label}, the burst itself`, await burst)
          return
        }
        const one: Timeline[] = []
        for (let i = 0; i < oneAtATime; i++)
          one.push(await askAndFollow(gateway.app, asked[next++] ?? '質問'))
        report(`${label}, 1 in flight (${oneAtATime} questions)`, one, { provisional })
        if (atOnce > 0) {
          const burst = await Promise.all(
            Array.from({ length: atOnce }, () => askAndFollow(gateway.app, asked[next++] ?? '質問')),
          )
          report(`${label}, ${atOnce} in flight`, burst)
        }
      } finally {
        await gateway.close()
        await workers.stop()
      }
    }
    const rerank = { RERANK_BY_DEFAULT: 'false' }
    if (only === 'fair') {
      // Fairness between askers at the defaults (one LLM sequence; an asker's answers one at a
      // time; a burst's answer gives its place once to another asker's): the lone key's questions
      // against the burst's own, in the same run.
      await scenario('defaults', rerank, { oneAtATime: 0, atOnce: 10, behindBurst: 5 })
      return
    }
    await scenario('defaults (CONTEXT_TOKENS 400, every core)', rerank, { oneAtATime: 5, atOnce: 10 })
    await scenario(
      'whole parents (CONTEXT_TOKENS 0, every core)',
      { ...rerank, CONTEXT_TOKENS: '0' },
      { oneAtATime: 3, atOnce: 10 },
    )
    await scenario(
      'before this round (whole parents, LLM_THREADS half the cores; first useful content = first token)',
      {
        ...rerank,
        CONTEXT_TOKENS: '0',
        LLM_THREADS: String(Math.max(1, Math.floor(availableParallelism() / 2))),
      },
      { oneAtATime: 3, atOnce: 0, provisional: false },
    )
  } finally {
    await closeRun(run)
  }
}

/** Two askers' keys (the gateway's API_KEY list: an admin, then an editor of every collection). */
const BENCH_KEYS = ['bench-fair-burst-key-0123456789', 'bench-fair-lone-key-01234567890']

/** Until the LLM worker is writing an answer (its queue has an active job). */
async function firstAnswerBeingWritten(run: Run) {
  const queue = run.producer.queues.get('question.generate')
  while (queue && (await queue.getActiveCount()) === 0)
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Until every question worker is attached to its queue. */
async function workersReady(run: Run) {
  for (;;) {
    const counts = await Promise.all(
      [...run.producer.queues.values()]
        .filter((queue) => queue.name.startsWith('question.'))
        .map((queue) => queue.getWorkersCount()),
    )
    if (counts.length > 0 && counts.every((count) => count > 0)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

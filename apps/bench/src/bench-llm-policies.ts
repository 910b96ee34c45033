import { type ChildProcess, spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import type { LlmPreset } from '@rag/config'
import type { TextGenerator } from '@rag/llm'
import { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt, type QuestionSource } from '@rag/questions'
import { type InferenceBench, loadShapeTrueLlm } from './bench-model-inference.ts'
import { loadAverage } from './machine-load.ts'
import { percentile } from './percentile.ts'

const load = loadAverage

/** The prompt the product builds for a question over three 2,000-character parents, at a context budget. */
function answerPrompt(
  bench: InferenceBench,
  question: string,
  contextTokens: number,
  generator: TextGenerator,
  /** Which question of the run this is: each gets passages of its own, as real questions do. */
  asked: number,
) {
  const all = bench.texts.passages
  const sources: QuestionSource[] = [0, 1, 2].map((i) => {
    const first = (asked * 3 + i) * 4
    const parentText = Array.from({ length: 4 }, (_, j) => all[(first + j) % all.length]).join('')
    return {
      rank: i + 1,
      sourceId: `doc-${i}.txt:p1`,
      documentId: '',
      title: `doc-${i}.txt`,
      score: 0.5,
      retrievalScore: 1,
      text: parentText.slice(0, 500),
      parentText,
      heading: null,
      chunkId: String(i),
    }
  })
  return buildAnswerPrompt({
    question,
    language: 'ja',
    sources,
    parents: true,
    budget: generator,
    maxTokens: 160,
    contextTokens,
    idf: new Map(),
  })
}

/** Milliseconds from the request to the first token, for each question. */
async function firstTokens(generator: TextGenerator, prompts: { system: string; prompt: string }[]) {
  const times: number[] = []
  for (const { system, prompt } of prompts) {
    const started = performance.now()
    let first = 0
    await generator.generate({
      system,
      prompt,
      maxTokens: 2,
      temperature: 0,
      onText: () => {
        first ||= performance.now()
      },
    })
    times.push((first || performance.now()) - started)
  }
  return times
}

const p50 = (values: number[]) => `${(percentile(values, 50) / 1000).toFixed(2)} s`

/**
 * The LLM's first token at the default context budget (CONTEXT_TOKENS 400) with the shared
 * instructions read once per sequence (prepared at load, as the LLM worker does) and without (every
 * question reads its whole prompt); then, every core given to the LLM, with two busy processes
 * standing in for ingestion, at the same priority and at INGEST_NICENESS's.
 */
export async function benchLlmPolicies(
  bench: InferenceBench,
  preset: LlmPreset,
  { contextSize }: { contextSize: number },
) {
  const cores = availableParallelism()
  const questions = bench.texts.questions.slice(1, 6)
  const open = (reusePrompts: boolean, threads: number) =>
    loadShapeTrueLlm(bench, preset, { contextSize, threads, reusePrompts })

  for (const reuse of [false, true]) {
    const generator = await open(reuse, cores)
    try {
      if (reuse) await generator.prepare?.(ANSWER_SYSTEM_PROMPT)
      const prompts = questions.map((question, i) => answerPrompt(bench, question, 400, generator, i))
      const times = await firstTokens(generator, prompts)
      console.log(
        `  first token, CONTEXT_TOKENS 400, ${cores} threads, instructions ${reuse ? 'read once (kept in the sequence)' : 'read with every question'}: p50 ${p50(times)} (${questions.length} questions) | load ${load()}`,
      )
    } finally {
      await generator.close()
    }
  }

  const generator = await open(true, cores)
  try {
    await generator.prepare?.(ANSWER_SYSTEM_PROMPT)
    const prompts = (offset: number) =>
      bench.texts.questions
        .slice(offset, offset + 3)
        .map((question, i) => answerPrompt(bench, question, 400, generator, offset + i))
    console.log(`  idle: first token p50 ${p50(await firstTokens(generator, prompts(10)))} | load ${load()}`)
    for (const niceness of [0, 10]) {
      const burners = Array.from({ length: cores }, () => busyProcess(niceness))
      try {
        const times = await firstTokens(generator, prompts(20 + niceness))
        console.log(
          `  ${cores} busy processes at nice ${niceness} beside it${niceness === 10 ? ' (INGEST_NICENESS)' : ''}: first token p50 ${p50(times)} | load ${load()}`,
        )
      } finally {
        for (const burner of burners) burner.kill('SIGKILL')
      }
    }
  } finally {
    await generator.close()
  }
}

/** A process that keeps one core busy, at the given niceness (as an ingestion worker would). */
function busyProcess(niceness: number): ChildProcess {
  return spawn(
    process.execPath,
    ['-e', `require('node:os').setPriority(${niceness}); for (;;) Math.sqrt(Math.random())`],
    { stdio: 'ignore' },
  )
}

import { availableParallelism } from 'node:os'
import { z } from 'zod'
import { defineFragment } from '../define-config.ts'
import { decimal, integer, oneOf, optionalText, optionalUrl } from '../env-values.ts'

export const LLM_BACKENDS = ['llama-cpp', 'openai-compatible'] as const
export type LlmBackend = (typeof LLM_BACKENDS)[number]

export interface GenerationSection {
  /** In-process node-llama-cpp, or an LLM server the user already runs (Ollama, llama.cpp's server, LM Studio, vLLM). */
  backend: LlmBackend
  /** The server's OpenAI-compatible API (…/v1), for the openai-compatible backend. */
  baseUrl?: string
  apiKey?: string
  /** How long one request to the server, its stream included, may take before it is given up (and retried). */
  timeoutMs: number
  contextSize: number
  /** Tokens of passages an answer is written from: their answering sentences and what surrounds them (0: whole passages). */
  contextTokens: number
  maxTokens: number
  concurrency: number
  threads: number
  temperature: number
  fusionQueries: number
}

export const generation = defineFragment({
  shape: {
    // llama-cpp: the GGUF in LLM_MODEL runs in the LLM worker. openai-compatible: the worker asks an
    // LLM server you run (Ollama, llama.cpp's llama-server, LM Studio, vLLM) for model LLM_MODEL.
    LLM_BACKEND: oneOf(LLM_BACKENDS, 'llama-cpp'),
    // The server's OpenAI-compatible API, e.g. http://127.0.0.1:11434/v1 (Ollama),
    // http://127.0.0.1:8080/v1 (llama-server), http://127.0.0.1:1234/v1 (LM Studio).
    LLM_BASE_URL: optionalUrl(['http:', 'https:']),
    // Sent as `Authorization: Bearer …` to the server, when it wants one.
    LLM_API_KEY: optionalText(),
    // One request to the server, its whole answer stream included, at most this long (then retried
    // like a crashed local model): a server that keeps the stream alive without finishing is cut.
    LLM_TIMEOUT_SECONDS: integer(300, { min: 5, max: 3600 }),
    // Tokens of the LLM's window (capped at what the model was trained for); passages are trimmed to
    // fit. 8192 holds three 2000-character Japanese parents (about 6,000 tokens) with the answer.
    LLM_CONTEXT_SIZE: integer(8192, { min: 256, max: 131072 }),
    // Tokens of the passages an answer is written from: each passage's sentences that hold the
    // question, with those around them, best passage first (0: whole passages, as the window allows).
    // The prompt is what a CPU reads before the first word (about 90 tokens/s on 2 cores for a 1.5B
    // model): 400 keeps the first token within seconds and the gold answer in the context for 97%+
    // of what whole passages give (docs/models.md).
    CONTEXT_TOKENS: integer(400, { min: 0, max: 131072 }),
    // Longest answer, in tokens. Answers end at the model's end-of-text, not at a blank line.
    LLM_MAX_TOKENS: integer(512, { min: 16, max: 8192 }),
    // Answers generated at once by one LLM worker (one context sequence each). One asker's answers
    // are handed to the LLM one at a time whatever this is, so askers take turns. More than 1 pays
    // on a GPU or a many-core CPU; on 2 cores two sequences wrote each answer ~6x slower (docs/models.md).
    LLM_CONCURRENCY: integer(1, { min: 1, max: 16 }),
    // CPU threads for llama.cpp; 0 = every core. A person waits on an answer, not on ingestion:
    // the ingestion workers run at a lower priority (INGEST_NICENESS), so the LLM has the whole
    // machine when it writes and ingestion takes what it leaves (docs/models.md has the figures).
    LLM_THREADS: integer(0, { min: 0, max: 256 }),
    // Sampling temperature; 0 = always the most likely token (repeatable answers).
    LLM_TEMPERATURE: decimal(0.2, { min: 0, max: 2 }),
    // RAG-Fusion: rephrasings of the question the LLM writes when fusion is on.
    FUSION_QUERIES: integer(3, { min: 1, max: 10 }),
  },
  check: (env, report) => {
    if (env.LLM_BACKEND === 'openai-compatible' && !env.LLM_BASE_URL) {
      report(
        'LLM_BASE_URL',
        'is required with LLM_BACKEND=openai-compatible (e.g. http://127.0.0.1:11434/v1 for Ollama)',
      )
    }
    if (env.LLM_MAX_TOKENS >= env.LLM_CONTEXT_SIZE) {
      report(
        'LLM_MAX_TOKENS',
        `must be below LLM_CONTEXT_SIZE (${env.LLM_CONTEXT_SIZE}), got ${env.LLM_MAX_TOKENS}`,
      )
    }
  },
  read: (env): GenerationSection => ({
    backend: env.LLM_BACKEND,
    ...(env.LLM_BASE_URL ? { baseUrl: env.LLM_BASE_URL } : {}),
    ...(env.LLM_API_KEY ? { apiKey: env.LLM_API_KEY } : {}),
    timeoutMs: env.LLM_TIMEOUT_SECONDS * 1000,
    contextSize: env.LLM_CONTEXT_SIZE,
    contextTokens: env.CONTEXT_TOKENS,
    maxTokens: env.LLM_MAX_TOKENS,
    concurrency: env.LLM_CONCURRENCY,
    threads: env.LLM_THREADS || availableParallelism(),
    temperature: env.LLM_TEMPERATURE,
    fusionQueries: env.FUSION_QUERIES,
  }),
})

/** The defaults, for code that runs the generation stage outside a configured process (tests, eval). */
export const generationDefaults = (): GenerationSection =>
  generation.read(z.object(generation.shape).parse({}))

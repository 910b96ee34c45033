import { isAbsolute, resolve } from 'node:path'
import type { Logger } from '@rag/log'
import { withModelLock } from '@rag/model-download'
import {
  getLlama,
  LlamaChatSession,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  resolveChatWrapper,
  resolveModelFile,
} from 'node-llama-cpp'
import { verifyModelFile } from './verify-model-file.ts'

export interface GenerateRequest {
  /** Instructions (the chat template's system turn). */
  system: string
  /** The user turn: passages and question. */
  prompt: string
  maxTokens: number
  temperature: number
  /** Each piece of text as the model writes it (for streaming). */
  onText?: (text: string) => void
  signal?: AbortSignal
}

export interface Generation {
  text: string
  /** The prompt's tokens, template included (those reused from an earlier question too). */
  promptTokens: number
  completionTokens: number
  /** Of the prompt, the tokens read for this question (the rest were kept from earlier ones). */
  evaluatedPromptTokens?: number
  /** It stopped at `maxTokens`, not at its own end: a client is told `finish_reason: length`. */
  stoppedAtCap?: boolean
}

/** A loaded GGUF: what the question pipeline needs from an LLM. */
export interface TextGenerator {
  model: string
  /** Tokens of the window each generation gets. */
  contextSize: number
  countTokens(text: string): number
  /** The first `tokens` tokens of text (to trim a passage to the window). */
  truncateToTokens(text: string, tokens: number): string
  generate(request: GenerateRequest): Promise<Generation>
  /**
   * Reads the instructions every request starts with once, ahead of the first question, so that
   * question pays only for its own part of the prompt (a model server keeps its own cache).
   */
  prepare?(system: string): Promise<void>
  close(): Promise<void>
}

export interface LlamaGeneratorOptions {
  /** hf:user/repo:quant, an https URL, a path, or a file name under modelsDir. */
  model: string
  modelsDir: string
  allowDownload: boolean
  contextSize: number
  /** Generations at once: one context sequence each. */
  sequences: number
  /** 0: llama.cpp's default (every core). */
  threads: number
  /** Hub or mirror `hf:` URIs resolve against (MODEL_ENDPOINT). */
  endpoint?: string
  logger: Logger
  /**
   * Keep each context sequence's evaluated tokens between requests, so the prompt's common prefix
   * (the instructions) is read once (default). Off: every request reads its whole prompt (the
   * bench's baseline).
   */
  reusePrompts?: boolean
}

/** Finds the GGUF (downloading it on first use when allowed, with progress in the log) and its path. */
export async function resolveModelPath(
  options: Pick<LlamaGeneratorOptions, 'model' | 'modelsDir' | 'allowDownload' | 'logger' | 'endpoint'>,
): Promise<string> {
  const { model, modelsDir, allowDownload, logger } = options
  const isUri = /^(hf:|https?:)/.test(model)
  if (!isUri) return isAbsolute(model) ? model : resolve(modelsDir, model)
  let lastReported = 0
  // One download per model across processes (the LLM worker and a CLI pull starting together).
  const lockPath = resolve(modelsDir, model.replace(/[^A-Za-z0-9._-]+/g, '_'))
  return withModelLock(lockPath, () =>
    resolveModelFile(model, {
      directory: resolve(modelsDir),
      download: allowDownload ? 'auto' : false,
      cli: false,
      ...(options.endpoint ? { endpoints: { huggingFace: options.endpoint } } : {}),
      onProgress: ({ totalSize, downloadedSize }) => {
        if (Date.now() - lastReported < 2000) return
        lastReported = Date.now()
        logger.info(
          { model, percent: Math.round((downloadedSize / Math.max(totalSize, 1)) * 100) },
          'downloading model',
        )
      },
    }),
  )
}

/** Loads the model once; each generate() borrows a context sequence and starts a fresh chat on it. */
export async function loadLlamaGenerator(options: LlamaGeneratorOptions): Promise<TextGenerator> {
  const modelPath = await resolveModelPath(options)
  await verifyModelFile(options.model, modelPath)
  // CPU only, and never a build from source at run time: the prebuilt binary or a clear failure.
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' as never })
  const model: LlamaModel = await llama.loadModel({ modelPath })
  const contextSize = Math.min(options.contextSize, model.trainContextSize)
  if (contextSize < options.contextSize)
    options.logger.warn(
      { asked: options.contextSize, model: model.trainContextSize },
      `LLM_CONTEXT_SIZE ${options.contextSize} is more than the model's window (${model.trainContextSize} tokens): using ${contextSize}`,
    )
  const context: LlamaContext = await model.createContext({
    contextSize,
    sequences: options.sequences,
    ...(options.threads > 0 ? { threads: options.threads } : {}),
  })

  // Thinking off for models that can think (Qwen3): on a CPU a grounded answer cannot afford
  // hundreds of reasoning tokens before the first word. Other models keep their own template.
  const chatWrapper = resolveChatWrapper(model, {
    customWrapperSettings: { qwen: { thoughts: 'discourage' } },
  })
  const countTokens = (text: string) => model.tokenize(text).length
  const reuse = options.reusePrompts ?? true

  // The context's sequences, lent one per generation. A sequence keeps what it evaluated: a new
  // chat on it reads only the tokens after the part it shares with the last one (node-llama-cpp
  // compares them), which is the instructions for every question.
  const free: LlamaContextSequence[] = Array.from({ length: options.sequences }, () => context.getSequence())
  const waiting: ((sequence: LlamaContextSequence) => void)[] = []
  const borrow = () =>
    new Promise<LlamaContextSequence>((resolve) => {
      const sequence = free.pop()
      if (sequence) resolve(sequence)
      else waiting.push(resolve)
    })
  const giveBack = async (sequence: LlamaContextSequence) => {
    if (!reuse) await sequence.clearHistory()
    const next = waiting.shift()
    if (next) next(sequence)
    else free.push(sequence)
  }
  const prepared = new Set<string>()

  return {
    model: options.model,
    contextSize,
    countTokens,
    truncateToTokens: (text, tokens) => {
      const all = model.tokenize(text)
      return all.length <= tokens ? text : model.detokenize(all.slice(0, Math.max(tokens, 0)))
    },
    async generate({ system, prompt, maxTokens, temperature, onText, signal }) {
      const sequence = await borrow()
      try {
        const session = new LlamaChatSession({
          contextSequence: sequence,
          systemPrompt: system,
          chatWrapper,
          autoDisposeSequence: false,
        })
        try {
          const readBefore = sequence.tokenMeter.usedInputTokens
          const wroteBefore = sequence.tokenMeter.usedOutputTokens
          const text = await session.prompt(prompt, {
            maxTokens,
            temperature,
            signal,
            stopOnAbortSignal: false,
            onTextChunk: onText,
          })
          // What the model read for this question (template included) and wrote, for the usage figures.
          const completionTokens = sequence.tokenMeter.usedOutputTokens - wroteBefore
          const evaluatedPromptTokens = sequence.tokenMeter.usedInputTokens - readBefore
          const promptTokens = Math.max(
            evaluatedPromptTokens,
            sequence.contextTokens.length - completionTokens,
          )
          return {
            text: text.trim(),
            promptTokens,
            completionTokens,
            evaluatedPromptTokens,
            stoppedAtCap: completionTokens >= maxTokens,
          }
        } finally {
          session.dispose({ disposeSequence: false })
        }
      } finally {
        await giveBack(sequence)
      }
    },
    async prepare(system) {
      if (!reuse || prepared.has(system)) return
      prepared.add(system)
      // Each sequence reads the instructions now, while nobody waits.
      const sequences = await Promise.all(Array.from({ length: options.sequences }, borrow))
      try {
        for (const sequence of sequences) {
          const session = new LlamaChatSession({
            contextSequence: sequence,
            systemPrompt: system,
            chatWrapper,
            autoDisposeSequence: false,
          })
          await session.preloadPrompt('')
          session.dispose({ disposeSequence: false })
        }
      } finally {
        for (const sequence of sequences) await giveBack(sequence)
      }
    },
    async close() {
      await context.dispose()
      await model.dispose()
      await llama.dispose()
    },
  }
}

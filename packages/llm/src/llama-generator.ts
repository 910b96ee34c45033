import { isAbsolute, resolve } from 'node:path'
import type { Logger } from '@rag/log'
import { withModelLock } from '@rag/model-download'
import {
  getLlama,
  LlamaChatSession,
  type LlamaContext,
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
  promptTokens: number
  completionTokens: number
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

/** Loads the model once; each generate() borrows a context sequence and a fresh chat session. */
export async function loadLlamaGenerator(options: LlamaGeneratorOptions): Promise<TextGenerator> {
  const modelPath = await resolveModelPath(options)
  await verifyModelFile(options.model, modelPath)
  // CPU only, and never a build from source at run time: the prebuilt binary or a clear failure.
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: 'error' as never })
  const model: LlamaModel = await llama.loadModel({ modelPath })
  const contextSize = Math.min(options.contextSize, model.trainContextSize)
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

  return {
    model: options.model,
    contextSize,
    countTokens,
    truncateToTokens: (text, tokens) => {
      const all = model.tokenize(text)
      return all.length <= tokens ? text : model.detokenize(all.slice(0, Math.max(tokens, 0)))
    },
    async generate({ system, prompt, maxTokens, temperature, onText, signal }) {
      const sequence = context.getSequence()
      try {
        const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: system, chatWrapper })
        const text = await session.prompt(prompt, {
          maxTokens,
          temperature,
          signal,
          stopOnAbortSignal: false,
          onTextChunk: onText,
        })
        // What the model actually read (template included) and wrote, for the answer's usage figures.
        const promptTokens = sequence.tokenMeter.usedInputTokens
        const completionTokens = sequence.tokenMeter.usedOutputTokens
        session.dispose({ disposeSequence: false })
        return { text: text.trim(), promptTokens, completionTokens }
      } finally {
        sequence.dispose()
      }
    },
    async close() {
      await context.dispose()
      await model.dispose()
      await llama.dispose()
    },
  }
}

import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers'
import { configureModelCache, downloadProgressLogger } from '@rag/embeddings'
import type { Logger } from '@rag/log'

/** Scores how well each passage answers a question, 0..1, in the passages' order. */
export interface Reranker {
  model: string
  score(question: string, passages: string[]): Promise<number[]>
}

export interface CrossEncoderOptions {
  /** Hub id (downloaded to modelsDir on first use) or a folder under modelsDir. */
  model: string
  modelsDir: string
  allowDownload: boolean
  logger: Logger
  batchSize?: number
  dtype?: 'fp32' | 'q8'
  /** Tokens per (question, passage) pair; longer pairs are cut (the passage side). */
  maxLength?: number
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x))

/** Relevance from one row of logits: one logit → sigmoid; two or more → softmax of the last class. */
export function relevanceOf(logits: number[]): number {
  if (logits.length === 1) return sigmoid(logits[0] ?? 0)
  const max = Math.max(...logits)
  const exps = logits.map((value) => Math.exp(value - max))
  return (exps.at(-1) ?? 0) / exps.reduce((sum, value) => sum + value, 0)
}

export async function loadCrossEncoder(options: CrossEncoderOptions): Promise<Reranker> {
  const { model, logger, batchSize = 8, maxLength = 512 } = options
  configureModelCache(options.modelsDir, options.allowDownload)
  const progress_callback = downloadProgressLogger(model, logger)
  const tokenizer: PreTrainedTokenizer = await AutoTokenizer.from_pretrained(model, { progress_callback })
  const classifier: PreTrainedModel = await AutoModelForSequenceClassification.from_pretrained(model, {
    dtype: options.dtype ?? 'q8',
    progress_callback,
  })

  return {
    model,
    async score(question, passages) {
      const scores: number[] = []
      for (let i = 0; i < passages.length; i += batchSize) {
        const batch = passages.slice(i, i + batchSize)
        const inputs = tokenizer(
          batch.map(() => question),
          { text_pair: batch, padding: true, truncation: true, max_length: maxLength },
        )
        const { logits } = await classifier(inputs)
        for (const row of logits.tolist() as number[][]) scores.push(relevanceOf(row))
      }
      return scores
    },
  }
}

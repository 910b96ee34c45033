import { serveModelThread } from '@rag/runtime/serve-model-thread'
import { type AnalysedPassage, analysePassage } from './analysed-passage.ts'

/** A thread that analyses batches of passages (the Japanese analyser is CPU-bound and synchronous). */
await serveModelThread<{ chunkChars: number }, string[], AnalysedPassage[]>(
  async ({ chunkChars }) =>
    async (passages) =>
      passages.map((passage) => analysePassage(passage, chunkChars)),
)

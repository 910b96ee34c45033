import { access } from 'node:fs/promises'
import { join } from 'node:path'
import { processEnvironment } from '@rag/config'
import { requireTestAsset, testConfig } from '@rag/config/testing'
import onnxProto from 'onnx-proto'

// onnx-proto is CommonJS: its namespace is on the default export under Node's ESM loader.
const { onnx } = onnxProto

import {
  encodeModel,
  floatTensor,
  seededFloats,
  TOKENIZER_FILES,
  tensorType,
  writeModelFolder,
} from '@rag/onnx-writer'

export { TOKENIZER_FILES }

/**
 * A feature-extraction model with random weights that transformers.js loads like any BERT: a
 * `Gather` of each token id's row of an embedding table is its last_hidden_state. With a real
 * tokenizer this exercises loading, batching, pooling and normalisation, not quality.
 */
export async function writeTinyEmbeddingModel({
  dir,
  tokenizerDir,
  dim = 8,
  vocabSize = 30522,
  seed = 42,
}: {
  dir: string
  tokenizerDir: string
  dim?: number
  vocabSize?: number
  seed?: number
}): Promise<void> {
  const model = encodeModel({
    name: 'tiny-embedder',
    node: [
      {
        opType: 'Gather',
        input: ['embeddings', 'input_ids'],
        output: ['last_hidden_state'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
    initializer: [floatTensor('embeddings', [vocabSize, dim], seededFloats(vocabSize * dim, seed))],
    input: [
      { name: 'input_ids', type: tensorType(onnx.TensorProto.DataType.INT64, ['batch', 'sequence']) },
      { name: 'attention_mask', type: tensorType(onnx.TensorProto.DataType.INT64, ['batch', 'sequence']) },
    ],
    output: [
      {
        name: 'last_hidden_state',
        type: tensorType(onnx.TensorProto.DataType.FLOAT, ['batch', 'sequence', dim]),
      },
    ],
  })
  await writeModelFolder({
    dir,
    tokenizerDir,
    tokenizerFiles: TOKENIZER_FILES,
    config: { model_type: 'bert', architectures: ['BertModel'], hidden_size: dim, vocab_size: vocabSize },
    model,
  })
}

/** Where the shared MiniLM tokenizer (for tiny test models) is under sharedDir, and whether it is there. */
export async function findSharedTokenizer(sharedDir: string): Promise<{ dir: string; found: boolean }> {
  const dir = join(sharedDir, 'models/tokenizers/all-MiniLM-L6-v2')
  const exists = await access(dir).then(
    () => true,
    () => false,
  )
  const found = requireTestAsset(
    testConfig.parse(processEnvironment()).test,
    `the shared tokenizer at ${dir}`,
    exists,
    'set SHARED_DIR',
  )
  return { dir, found }
}

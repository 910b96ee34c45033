import {
  encodeModel,
  floatTensor,
  seededFloats,
  TOKENIZER_FILES,
  tensorType,
  writeModelFolder,
} from '@rag/onnx-writer'
import onnxProto from 'onnx-proto'

// onnx-proto is CommonJS: its namespace is on the default export under Node's ESM loader.
const { onnx } = onnxProto

/**
 * A sequence-classification model with random weights that transformers.js loads like a BERT
 * cross-encoder: logit = Σ over the pair's real tokens (attention mask) of a per-token weight.
 * Padding adds nothing, so a pair scores the same whatever batch it is in; tests assert wiring,
 * batching and ordering, not quality.
 */
export async function writeTinyCrossEncoder({
  dir,
  tokenizerDir,
  vocabSize = 30522,
  seed = 7,
}: {
  dir: string
  tokenizerDir: string
  vocabSize?: number
  seed?: number
}): Promise<void> {
  const weights = seededFloats(vocabSize, seed).map((w) => w * 0.5)
  const int64 = onnx.TensorProto.DataType.INT64
  const model = encodeModel({
    name: 'tiny-cross-encoder',
    node: [
      // [batch, seq] ids → [batch, seq, 1] weights
      {
        opType: 'Gather',
        input: ['token_weights', 'input_ids'],
        output: ['weighted'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        opType: 'Cast',
        input: ['attention_mask'],
        output: ['mask_float'],
        attribute: [
          { name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: onnx.TensorProto.DataType.FLOAT },
        ],
      },
      { opType: 'Unsqueeze', input: ['mask_float', 'last_axis'], output: ['mask3'] },
      { opType: 'Mul', input: ['weighted', 'mask3'], output: ['masked'] },
      // Σ over the sequence: [batch, 1]
      {
        opType: 'ReduceSum',
        input: ['masked', 'sequence_axis'],
        output: ['logits'],
        attribute: [{ name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
    ],
    initializer: [
      floatTensor('token_weights', [vocabSize, 1], weights),
      onnx.TensorProto.create({ name: 'last_axis', dims: [1], dataType: int64, int64Data: [2] }),
      onnx.TensorProto.create({ name: 'sequence_axis', dims: [1], dataType: int64, int64Data: [1] }),
    ],
    input: [
      { name: 'input_ids', type: tensorType(int64, ['batch', 'sequence']) },
      { name: 'attention_mask', type: tensorType(int64, ['batch', 'sequence']) },
    ],
    output: [{ name: 'logits', type: tensorType(onnx.TensorProto.DataType.FLOAT, ['batch', 1]) }],
  })
  await writeCrossEncoderFolder({ dir, tokenizerDir, vocabSize, model })
}

/** A cross-encoder's folder as transformers.js loads it (BERT sequence classification, one logit). */
export async function writeCrossEncoderFolder({
  dir,
  tokenizerDir,
  vocabSize,
  model,
}: {
  dir: string
  tokenizerDir: string
  vocabSize: number
  model: Uint8Array
}): Promise<void> {
  await writeModelFolder({
    dir,
    tokenizerDir,
    tokenizerFiles: TOKENIZER_FILES,
    config: {
      model_type: 'bert',
      architectures: ['BertForSequenceClassification'],
      vocab_size: vocabSize,
      id2label: { 0: 'LABEL_0' },
      label2id: { LABEL_0: 0 },
    },
    model,
  })
}

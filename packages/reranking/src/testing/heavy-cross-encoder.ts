import { encodeModel, floatTensor, seededFloats, tensorType } from '@rag/onnx-writer'
import onnxProto from 'onnx-proto'
import { writeCrossEncoderFolder } from './tiny-cross-encoder.ts'

const { onnx } = onnxProto

/**
 * A cross-encoder whose inference costs what a real one's does: every token goes through `layers`
 * dense layers of `hidden` × `hidden` (the bulk of a transformer's FLOPs), then the pair's logit is
 * the mean over its tokens. Random weights: the scores mean nothing; the CPU time and the way it
 * blocks (or does not block) the caller are real.
 */
export async function writeHeavyCrossEncoder({
  dir,
  tokenizerDir,
  hidden = 1024,
  layers = 16,
  vocabSize = 30522,
  embedding = 32,
  distinctWeights = layers,
}: {
  dir: string
  tokenizerDir: string
  hidden?: number
  layers?: number
  vocabSize?: number
  embedding?: number
  /** Layers share this many weight matrices: the CPU time of many layers without their memory. */
  distinctWeights?: number
}): Promise<void> {
  const int64 = onnx.TensorProto.DataType.INT64
  const scale = (values: Float32Array, by: number) => values.map((value) => value * by)
  const node: Parameters<typeof encodeModel>[0]['node'] = [
    { opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['x_embedded'] },
    { opType: 'MatMul', input: ['x_embedded', 'projection'], output: ['x0'] },
  ]
  const initializer = [
    floatTensor('embeddings', [vocabSize, embedding], seededFloats(vocabSize * embedding, 1)),
    floatTensor('projection', [embedding, hidden], scale(seededFloats(embedding * hidden, 2), 0.2)),
    floatTensor('readout', [hidden, 1], scale(seededFloats(hidden, 3), 0.05)),
  ]
  for (let layer = 0; layer < layers; layer++) {
    node.push(
      { opType: 'MatMul', input: [`x${layer}`, `w${layer % distinctWeights}`], output: [`h${layer}`] },
      { opType: 'Tanh', input: [`h${layer}`], output: [`x${layer + 1}`] },
    )
    if (layer < distinctWeights)
      initializer.push(
        floatTensor(
          `w${layer}`,
          [hidden, hidden],
          scale(seededFloats(hidden * hidden, 10 + layer), 1 / Math.sqrt(hidden)),
        ),
      )
  }
  node.push(
    { opType: 'MatMul', input: [`x${layers}`, 'readout'], output: ['token_logits'] },
    {
      opType: 'ReduceMean',
      input: ['token_logits'],
      output: ['logits'],
      attribute: [
        { name: 'axes', type: onnx.AttributeProto.AttributeType.INTS, ints: [1] },
        { name: 'keepdims', type: onnx.AttributeProto.AttributeType.INT, i: 0 },
      ],
    },
  )
  const model = encodeModel({
    name: 'heavy-cross-encoder',
    node,
    initializer,
    input: [
      { name: 'input_ids', type: tensorType(int64, ['batch', 'sequence']) },
      { name: 'attention_mask', type: tensorType(int64, ['batch', 'sequence']) },
    ],
    output: [{ name: 'logits', type: tensorType(onnx.TensorProto.DataType.FLOAT, ['batch', 1]) }],
  })
  await writeCrossEncoderFolder({ dir, tokenizerDir, vocabSize, model })
}

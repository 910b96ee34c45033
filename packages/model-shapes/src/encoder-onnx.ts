import { randomFillSync } from 'node:crypto'
import type { EncoderArchitecture } from '@rag/config'
import { encodeModel, tensorType } from '@rag/onnx-writer'
import onnxProto from 'onnx-proto'
import { GraphBuilder } from './graph-builder.ts'

const { onnx } = onnxProto
const { DataType } = onnx.TensorProto

/** An encoder's dimensions (the registry's) and how the published ONNX file stores its weights. */
export interface EncoderShape extends EncoderArchitecture {
  /**
   * `int8` is onnxruntime's dynamic quantization (uint8 matrices and embedding table, activations
   * quantized per call: DynamicQuantizeLinear + MatMulInteger, which onnxruntime fuses as it does
   * for the published model_quantized.onnx); `fp32` is a plain export (model.onnx).
   */
  weights: 'int8' | 'fp32'
}

export type EncoderHead = 'hidden-states' | 'classifier'

/**
 * A random-weight encoder with exactly this shape: the same matrices, the same operators per layer
 * and the same bytes on disk as the published file, so its CPU time and memory are the real
 * model's. Its outputs mean nothing. `hidden-states` is what a feature-extraction model returns
 * (last_hidden_state); `classifier` is a cross-encoder's one logit per pair.
 */
export function encoderOnnx(shape: EncoderShape, head: EncoderHead): Uint8Array {
  const g = new GraphBuilder()
  const { hidden, heads } = shape
  const headSize = hidden / heads
  const linear = linearLayer(g, shape.weights)

  // Embeddings: token rows + positions, then LayerNorm.
  const words =
    shape.weights === 'int8'
      ? g.one('DequantizeLinear', [
          g.one('Gather', [
            g.uint8('word_embeddings', [shape.vocab, hidden], randomBytes(shape.vocab * hidden)),
            'input_ids',
          ]),
          g.scalar('word_embeddings_scale', 0.02 / 74),
          g.uint8Scalar('word_embeddings_zero', 128),
        ])
      : g.one('Gather', [
          g.float('word_embeddings', [shape.vocab, hidden], randomFloats(shape.vocab * hidden, 0.02)),
          'input_ids',
        ])
  const sequenceLength = g.one('Gather', [g.one('Shape', ['input_ids']), g.int64Scalar('one_index', 1)])
  const positions = g.one('Range', [g.int64Scalar('zero', 0), sequenceLength, g.int64Scalar('step', 1)])
  const positionTable = g.float(
    'position_embeddings',
    [shape.maxPositions, hidden],
    randomFloats(shape.maxPositions * hidden, 0.02),
  )
  let x = layerNorm(
    g,
    g.one('Add', [words, g.one('Gather', [positionTable, positions])]),
    hidden,
    'embeddings',
  )

  // Additive attention mask, [batch, 1, 1, sequence]: 0 for tokens, -10000 for padding.
  const maskFloat = g.one('Cast', ['attention_mask'], { to: DataType.FLOAT })
  const mask = g.one('Unsqueeze', [
    g.one('Mul', [g.one('Sub', [g.scalar('one', 1), maskFloat]), g.scalar('minus_large', -10000)]),
    g.int64('mask_axes', [1, 2]),
  ])
  const splitHeads = g.int64('split_heads', [0, 0, heads, headSize])
  const mergeHeads = g.int64('merge_heads', [0, 0, hidden])
  const attentionScale = g.scalar('attention_scale', 1 / Math.sqrt(headSize))

  for (let layer = 0; layer < shape.layers; layer++) {
    const name = (part: string) => `layer${layer}_${part}`
    const input = linear.prepare(x)
    const project = (part: string, perm: number[]) =>
      g.one('Transpose', [g.one('Reshape', [linear.apply(input, name(part), hidden, hidden), splitHeads])], {
        perm,
      })
    const query = project('query', [0, 2, 1, 3])
    const key = project('key', [0, 2, 3, 1])
    const value = project('value', [0, 2, 1, 3])
    const scores = g.one('Add', [g.one('Mul', [g.one('MatMul', [query, key]), attentionScale]), mask])
    const context = g.one('Reshape', [
      g.one('Transpose', [g.one('MatMul', [g.one('Softmax', [scores], { axis: -1 }), value])], {
        perm: [0, 2, 1, 3],
      }),
      mergeHeads,
    ])
    const attended = linear.apply(linear.prepare(context), name('attention_output'), hidden, hidden)
    x = layerNorm(g, g.one('Add', [attended, x]), hidden, name('attention_norm'))

    const gated = shape.feedForward === 'gated-gelu'
    const up = linear.apply(
      linear.prepare(x),
      name('intermediate'),
      hidden,
      shape.intermediate * (gated ? 2 : 1),
    )
    let activated: string
    if (gated) {
      const [gate, values] = g.op(
        'Split',
        [up, g.int64(name('halves'), [shape.intermediate, shape.intermediate])],
        { axis: -1 },
        2,
      )
      activated = g.one('Mul', [gelu(g, gate as string), values as string])
    } else activated = gelu(g, up)
    const down = linear.apply(linear.prepare(activated), name('output'), shape.intermediate, hidden)
    x = layerNorm(g, g.one('Add', [down, x]), hidden, name('output_norm'))
  }

  let output = x
  let outputType = tensorType(DataType.FLOAT, ['batch', 'sequence', hidden])
  if (head === 'classifier') {
    // The first token's state through a dense + tanh pooler, then one logit (RoBERTa's head).
    const first = g.one('Gather', [x, g.int64Scalar('first_token', 0)], { axis: 1 })
    const pooled = g.one('Tanh', [linear.apply(linear.prepare(first), 'pooler', hidden, hidden)])
    output = linear.apply(linear.prepare(pooled), 'classifier', hidden, 1)
    outputType = tensorType(DataType.FLOAT, ['batch', 1])
  }
  g.one('Identity', [output])
  const last = g.nodes.at(-1)
  if (last) last.output = [head === 'classifier' ? 'logits' : 'last_hidden_state']

  return encodeModel({
    name: 'shape-true-encoder',
    node: g.nodes,
    initializer: g.initializers,
    input: [
      { name: 'input_ids', type: tensorType(DataType.INT64, ['batch', 'sequence']) },
      { name: 'attention_mask', type: tensorType(DataType.INT64, ['batch', 'sequence']) },
    ],
    output: [{ name: head === 'classifier' ? 'logits' : 'last_hidden_state', type: outputType }],
  })
}

/** y = x·W + b, as the published file computes it: quantized per call (int8) or in floats (fp32). */
function linearLayer(g: GraphBuilder, weights: EncoderShape['weights']) {
  return {
    /** int8: the activation quantized once, shared by every matrix that reads it (Q, K, V). */
    prepare(x: string): string[] {
      return weights === 'int8' ? g.op('DynamicQuantizeLinear', [x], {}, 3) : [x]
    },
    apply(input: string[], name: string, rows: number, columns: number): string {
      const bias = g.float(`${name}_bias`, [columns], new Float32Array(columns))
      if (weights === 'fp32') {
        const matrix = g.float(
          `${name}_weight`,
          [rows, columns],
          randomFloats(rows * columns, 1 / Math.sqrt(rows)),
        )
        return g.one('Add', [g.one('MatMul', [input[0] as string, matrix]), bias])
      }
      const [quantized, scale, zero] = input as [string, string, string]
      const matrix = g.uint8(`${name}_weight`, [rows, columns], randomBytes(rows * columns))
      const product = g.one('MatMulInteger', [quantized, matrix, zero, g.uint8Scalar(`${name}_zero`, 128)])
      const factor = g.one('Mul', [scale, g.scalar(`${name}_scale`, 1 / (74 * Math.sqrt(rows)))])
      return g.one('Add', [g.one('Mul', [g.one('Cast', [product], { to: DataType.FLOAT }), factor]), bias])
    },
  }
}

function layerNorm(g: GraphBuilder, x: string, hidden: number, name: string): string {
  const gamma = g.float(`${name}_gamma`, [hidden], new Float32Array(hidden).fill(1))
  const beta = g.float(`${name}_beta`, [hidden], new Float32Array(hidden))
  return g.one('LayerNormalization', [x, gamma, beta], { axis: -1, epsilon: 1e-5 })
}

/** The exact (erf) GELU, written the way exporters write it so onnxruntime fuses it the same way. */
function gelu(g: GraphBuilder, x: string): string {
  const erf = g.one('Erf', [g.one('Div', [x, g.scalar(`${x}_sqrt2`, Math.SQRT2)])])
  return g.one('Mul', [
    g.one('Mul', [x, g.one('Add', [erf, g.scalar(`${x}_one`, 1)])]),
    g.scalar(`${x}_half`, 0.5),
  ])
}

function randomBytes(count: number): Uint8Array {
  // randomFillSync fills at most 2^31-1 bytes per call; every table here is far smaller.
  return randomFillSync(new Uint8Array(count))
}

/** Uniform values of the given standard deviation (fast enough for ~100M weights). */
function randomFloats(count: number, deviation: number): Float32Array {
  const bytes = randomBytes(count)
  const values = new Float32Array(count)
  const scale = (deviation * Math.sqrt(12)) / 256
  for (let i = 0; i < count; i++) values[i] = ((bytes[i] as number) - 127.5) * scale
  return values
}

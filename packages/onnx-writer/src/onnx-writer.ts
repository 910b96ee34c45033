import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { onnx as OnnxTypes } from 'onnx-proto'
import onnxProto from 'onnx-proto'

// onnx-proto is CommonJS: its namespace is on the default export under Node's ESM loader.
const { onnx } = onnxProto

/** Deterministic pseudo-random floats in [-1, 1) (tests need the same model every run). */
export function seededFloats(count: number, seed: number): Float32Array {
  const values = new Float32Array(count)
  let state = seed >>> 0 || 1
  for (let i = 0; i < count; i++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    values[i] = ((state >>> 0) / 2 ** 32) * 2 - 1
  }
  return values
}

export const tensorType = (elemType: OnnxTypes.TensorProto.DataType, dims: (number | string)[]) =>
  onnx.TypeProto.create({
    tensorType: {
      elemType,
      shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
    },
  })

export const floatTensor = (name: string, dims: number[], values: Float32Array) =>
  onnx.TensorProto.create({
    name,
    dims,
    dataType: onnx.TensorProto.DataType.FLOAT,
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  })

export function encodeModel(graph: OnnxTypes.IGraphProto): Uint8Array {
  return onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: '', version: 17 }],
      producerName: 'rag-tests',
      graph,
    }),
  ).finish()
}

/**
 * A model folder as transformers.js reads it: the real tokenizer's files, config.json, and the
 * ONNX graph under both names it looks for (fp32 and q8), so any dtype setting loads it.
 */
export async function writeModelFolder({
  dir,
  tokenizerDir,
  tokenizerFiles,
  config,
  model,
}: {
  dir: string
  tokenizerDir: string
  tokenizerFiles: string[]
  config: Record<string, unknown>
  model: Uint8Array
}): Promise<void> {
  await mkdir(join(dir, 'onnx'), { recursive: true })
  for (const file of tokenizerFiles) await copyFile(join(tokenizerDir, file), join(dir, file))
  await writeFile(join(dir, 'config.json'), JSON.stringify(config))
  await writeFile(join(dir, 'onnx', 'model.onnx'), model)
  await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), model)
}

import type { onnx as OnnxTypes } from 'onnx-proto'
import onnxProto from 'onnx-proto'

// onnx-proto is CommonJS: its namespace is on the default export under Node's ESM loader.
const { onnx } = onnxProto
const { DataType } = onnx.TensorProto
const { AttributeType } = onnx.AttributeProto

type Attribute = number | number[] | 'ints'

/** Appends nodes and weights to an ONNX graph with generated value names, so a layer reads as code. */
export class GraphBuilder {
  readonly nodes: OnnxTypes.INodeProto[] = []
  readonly initializers: OnnxTypes.ITensorProto[] = []
  private counter = 0

  /** One node with one output; attributes: numbers are INT/FLOAT by kind, arrays are INTS. */
  op(opType: string, inputs: string[], attributes: Record<string, Attribute> = {}, outputs = 1): string[] {
    const names = Array.from({ length: outputs }, () => `${opType.toLowerCase()}_${this.counter++}`)
    this.nodes.push({
      opType,
      input: inputs,
      output: names,
      attribute: Object.entries(attributes).map(([name, value]) =>
        Array.isArray(value)
          ? { name, type: AttributeType.INTS, ints: value }
          : Number.isInteger(value) && name !== 'epsilon' && name !== 'alpha'
            ? { name, type: AttributeType.INT, i: value as number }
            : { name, type: AttributeType.FLOAT, f: value as number },
      ),
    })
    return names
  }

  one(opType: string, inputs: string[], attributes: Record<string, Attribute> = {}): string {
    return this.op(opType, inputs, attributes)[0] as string
  }

  float(name: string, dims: number[], values: Float32Array): string {
    this.initializers.push({ name, dims, dataType: DataType.FLOAT, rawData: bytesOf(values) })
    return name
  }

  uint8(name: string, dims: number[], values: Uint8Array): string {
    this.initializers.push({ name, dims, dataType: DataType.UINT8, rawData: values })
    return name
  }

  int64(name: string, values: number[]): string {
    this.initializers.push({ name, dims: [values.length], dataType: DataType.INT64, int64Data: values })
    return name
  }

  int64Scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: DataType.INT64, int64Data: [value] })
    return name
  }

  scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: DataType.FLOAT, floatData: [value] })
    return name
  }

  uint8Scalar(name: string, value: number): string {
    this.initializers.push({ name, dims: [], dataType: DataType.UINT8, rawData: Uint8Array.of(value) })
    return name
  }
}

const bytesOf = (values: Float32Array) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength)

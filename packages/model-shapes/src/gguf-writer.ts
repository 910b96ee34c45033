import { open } from 'node:fs/promises'

// GGUF v3 (ggml's docs/gguf.md): header, metadata key/values, tensor infos, then each tensor's
// data at an offset aligned to general.alignment (32), all little-endian.
const VALUE = { uint32: 4, int32: 5, float32: 6, bool: 7, string: 8, array: 9 } as const
const ALIGNMENT = 32

export type GgufValue =
  | { uint32: number }
  | { float32: number }
  | { bool: boolean }
  | { string: string }
  | { strings: string[] }
  | { float32s: number[] | Float32Array }
  | { int32s: number[] | Int32Array }

export interface GgufTensor {
  name: string
  /** ggml order: the row length first. */
  dims: number[]
  /** ggml_type: 0 F32, 2 Q4_0. */
  type: number
  bytes: number
  /** Writes the tensor's bytes in chunks (a 1.5B model does not fit one buffer comfortably). */
  fill: (write: (chunk: Uint8Array) => Promise<void>) => Promise<void>
}

class Bytes {
  private parts: Buffer[] = []
  u32(value: number) {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(value)
    this.parts.push(b)
  }
  i32(value: number) {
    const b = Buffer.alloc(4)
    b.writeInt32LE(value)
    this.parts.push(b)
  }
  u64(value: number) {
    const b = Buffer.alloc(8)
    b.writeBigUInt64LE(BigInt(value))
    this.parts.push(b)
  }
  f32(value: number) {
    const b = Buffer.alloc(4)
    b.writeFloatLE(value)
    this.parts.push(b)
  }
  string(value: string) {
    const b = Buffer.from(value, 'utf8')
    this.u64(b.length)
    this.parts.push(b)
  }
  raw(b: Buffer) {
    this.parts.push(b)
  }
  get length() {
    return this.parts.reduce((sum, b) => sum + b.length, 0)
  }
  concat() {
    return Buffer.concat(this.parts)
  }
}

function writeValue(out: Bytes, value: GgufValue) {
  if ('uint32' in value) {
    out.u32(VALUE.uint32)
    return out.u32(value.uint32)
  }
  if ('float32' in value) {
    out.u32(VALUE.float32)
    return out.f32(value.float32)
  }
  if ('bool' in value) {
    out.u32(VALUE.bool)
    return out.raw(Buffer.of(value.bool ? 1 : 0))
  }
  if ('string' in value) {
    out.u32(VALUE.string)
    return out.string(value.string)
  }
  out.u32(VALUE.array)
  if ('strings' in value) {
    out.u32(VALUE.string)
    out.u64(value.strings.length)
    for (const item of value.strings) out.string(item)
  } else if ('float32s' in value) {
    out.u32(VALUE.float32)
    out.u64(value.float32s.length)
    for (const item of value.float32s) out.f32(item)
  } else {
    out.u32(VALUE.int32)
    out.u64(value.int32s.length)
    for (const item of value.int32s) out.i32(item)
  }
}

const padTo = (length: number) => (ALIGNMENT - (length % ALIGNMENT)) % ALIGNMENT

/** Writes a GGUF file: the metadata given, and the tensors streamed one after another. */
export async function writeGguf(path: string, metadata: Record<string, GgufValue>, tensors: GgufTensor[]) {
  const head = new Bytes()
  head.raw(Buffer.from('GGUF', 'latin1'))
  head.u32(3)
  head.u64(tensors.length)
  head.u64(Object.keys(metadata).length + 1)
  head.string('general.alignment')
  writeValue(head, { uint32: ALIGNMENT })
  for (const [key, value] of Object.entries(metadata)) {
    head.string(key)
    writeValue(head, value)
  }
  let offset = 0
  for (const tensor of tensors) {
    head.string(tensor.name)
    head.u32(tensor.dims.length)
    for (const dim of tensor.dims) head.u64(dim)
    head.u32(tensor.type)
    head.u64(offset)
    offset += tensor.bytes + padTo(tensor.bytes)
  }
  head.raw(Buffer.alloc(padTo(head.length)))

  const file = await open(path, 'w')
  try {
    await file.write(head.concat())
    const write = async (chunk: Uint8Array) => {
      await file.write(chunk)
    }
    for (const tensor of tensors) {
      await tensor.fill(write)
      await write(Buffer.alloc(padTo(tensor.bytes)))
    }
  } finally {
    await file.close()
  }
}

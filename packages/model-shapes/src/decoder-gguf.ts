import { randomFillSync } from 'node:crypto'
import type { DecoderArchitecture } from '@rag/config'
import { type GgufTensor, writeGguf } from './gguf-writer.ts'

const F32 = 0
const Q4_0 = 2
const Q4_0_BLOCK = { weights: 32, bytes: 18 }

/**
 * A GGUF with the exact tensors of a Qwen2-architecture instruct model (Qwen2.5-1.5B: 28 layers,
 * 1536 wide, 12 query / 2 key-value heads, 8960 feed-forward, 151,936-token vocabulary, tied
 * embeddings), its matrices in Q4_0 with random values. llama.cpp runs it at the real model's
 * speed and memory; what it writes is noise, and it rarely stops before max tokens.
 */
export async function writeDecoderGguf(path: string, shape: DecoderArchitecture): Promise<void> {
  const { hidden, layers, heads, kvHeads, feedForward, vocab } = shape
  const kvWidth = (hidden / heads) * kvHeads
  const tensors: GgufTensor[] = [
    quantized('token_embd.weight', hidden, vocab),
    ones('output_norm.weight', hidden),
  ]
  for (let layer = 0; layer < layers; layer++) {
    const blk = (name: string) => `blk.${layer}.${name}`
    tensors.push(
      ones(blk('attn_norm.weight'), hidden),
      quantized(blk('attn_q.weight'), hidden, hidden),
      zeros(blk('attn_q.bias'), hidden),
      quantized(blk('attn_k.weight'), hidden, kvWidth),
      zeros(blk('attn_k.bias'), kvWidth),
      quantized(blk('attn_v.weight'), hidden, kvWidth),
      zeros(blk('attn_v.bias'), kvWidth),
      quantized(blk('attn_output.weight'), hidden, hidden),
      ones(blk('ffn_norm.weight'), hidden),
      quantized(blk('ffn_gate.weight'), hidden, feedForward),
      quantized(blk('ffn_up.weight'), hidden, feedForward),
      quantized(blk('ffn_down.weight'), feedForward, hidden),
    )
  }
  const vocabulary = syntheticVocabulary(vocab)
  const arch = 'qwen2'
  await writeGguf(
    path,
    {
      'general.architecture': { string: arch },
      'general.name': { string: `shape-true ${shape.family}` },
      'general.file_type': { uint32: 2 },
      [`${arch}.block_count`]: { uint32: layers },
      [`${arch}.context_length`]: { uint32: shape.context },
      [`${arch}.embedding_length`]: { uint32: hidden },
      [`${arch}.feed_forward_length`]: { uint32: feedForward },
      [`${arch}.attention.head_count`]: { uint32: heads },
      [`${arch}.attention.head_count_kv`]: { uint32: kvHeads },
      [`${arch}.rope.freq_base`]: { float32: 1_000_000 },
      [`${arch}.attention.layer_norm_rms_epsilon`]: { float32: 1e-6 },
      'tokenizer.ggml.model': { string: 'llama' },
      'tokenizer.ggml.tokens': { strings: vocabulary.tokens },
      'tokenizer.ggml.scores': { float32s: vocabulary.scores },
      'tokenizer.ggml.token_type': { int32s: vocabulary.types },
      'tokenizer.ggml.bos_token_id': { uint32: 1 },
      'tokenizer.ggml.eos_token_id': { uint32: vocabulary.endOfTurn },
      'tokenizer.ggml.unknown_token_id': { uint32: 0 },
      'tokenizer.ggml.add_bos_token': { bool: false },
      'tokenizer.chat_template': { string: CHATML },
    },
    tensors,
  )
}

// Qwen2.5's turn format (ChatML), which node-llama-cpp recognises.
const CHATML =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"

function quantized(name: string, rowLength: number, rows: number): GgufTensor {
  const blocks = (rowLength * rows) / Q4_0_BLOCK.weights
  // Scale 0.004: values (q - 8)·d have a standard deviation of ~0.018, a trained layer's order.
  const scale = Buffer.alloc(2)
  scale.writeUInt16LE(0x1c19)
  return {
    name,
    dims: [rowLength, rows],
    type: Q4_0,
    bytes: blocks * Q4_0_BLOCK.bytes,
    fill: async (write) => {
      const perChunk = 1 << 16
      for (let done = 0; done < blocks; done += perChunk) {
        const count = Math.min(perChunk, blocks - done)
        const chunk = randomFillSync(Buffer.alloc(count * Q4_0_BLOCK.bytes))
        for (let block = 0; block < count; block++) scale.copy(chunk, block * Q4_0_BLOCK.bytes)
        await write(chunk)
      }
    },
  }
}

const constant = (name: string, length: number, value: number): GgufTensor => ({
  name,
  dims: [length],
  type: F32,
  bytes: length * 4,
  fill: (write) => write(new Uint8Array(new Float32Array(length).fill(value).buffer)),
})
const ones = (name: string, length: number) => constant(name, length, 1)
const zeros = (name: string, length: number) => constant(name, length, 0)

/**
 * A SentencePiece-style vocabulary that splits text about as finely as the real one: one token per
 * kana, kanji or full-width symbol, and Latin text in pieces of up to three letters (the real BPE
 * averages about four characters per English token and one per Japanese character), with byte
 * fallback for anything else. Padded with unused tokens to the real vocabulary size.
 */
function syntheticVocabulary(size: number) {
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>']
  const types = [2, 3, 3, 3, 3]
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`)
    types.push(6)
  }
  // The word-start marker first: every text begins with it (SentencePiece's space prefix).
  const normal = new Set<string>(['▁'])
  const ranges = [
    [0x20, 0x7e],
    [0x3000, 0x30ff],
    [0x4e00, 0x9fff],
    [0xff00, 0xffef],
  ] as const
  for (const [from, to] of ranges) for (let c = from; c <= to; c++) normal.add(String.fromCodePoint(c))
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  for (const a of letters) {
    normal.add(`▁${a}`)
    for (const b of letters) {
      normal.add(`${a}${b}`)
      normal.add(`▁${a}${b}`)
      for (const c of letters) normal.add(`${a}${b}${c}`)
    }
  }
  for (const token of normal) {
    if (tokens.length >= size) break
    tokens.push(token)
    types.push(1)
  }
  while (tokens.length < size) {
    tokens.push(`<unused${tokens.length}>`)
    types.push(5)
  }
  // Longer pieces win when merging, as in a trained SentencePiece model.
  const scores = tokens.map((token, index) => (types[index] === 1 ? [...token].length - index / size : 0))
  return { tokens, types, scores, endOfTurn: 4 }
}

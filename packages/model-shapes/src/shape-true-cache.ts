import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { EncoderPreset, LlmPreset } from '@rag/config'
import { TOKENIZER_FILES } from '@rag/onnx-writer'
import { writeDecoderGguf } from './decoder-gguf.ts'
import { type EncoderHead, encoderOnnx } from './encoder-onnx.ts'

// Bumped when the generated graphs change, so a cache from an older generator is rebuilt.
const GENERATOR_VERSION = '2'

async function isComplete(marker: string) {
  return (await readFile(marker, 'utf8').catch(() => '')) === GENERATOR_VERSION
}

/**
 * A shape-true copy of an encoder preset under cacheDir/onnx/<id>, generated on first use (a
 * minute or so for a 568M-parameter model) and reused after: transformers.js loads it as
 * `<id>` with MODELS_DIR = the returned modelsDir. The tokenizer is the one given (a real one),
 * so text is split into about as many tokens as the real model's would be.
 */
export async function shapeTrueEncoder({
  cacheDir,
  preset,
  head,
  tokenizerDir,
}: {
  cacheDir: string
  preset: EncoderPreset
  head: EncoderHead
  tokenizerDir: string
}): Promise<{ modelsDir: string; model: string }> {
  const modelsDir = join(cacheDir, 'onnx')
  const dir = join(modelsDir, preset.id)
  const marker = join(dir, '.complete')
  if (!(await isComplete(marker))) {
    await rm(dir, { recursive: true, force: true })
    await mkdir(join(dir, 'onnx'), { recursive: true })
    for (const file of TOKENIZER_FILES) await copyFile(join(tokenizerDir, file), join(dir, file))
    const classifier = head === 'classifier'
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({
        model_type: 'bert',
        architectures: [classifier ? 'BertForSequenceClassification' : 'BertModel'],
        hidden_size: preset.architecture.hidden,
        vocab_size: preset.architecture.vocab,
        ...(classifier ? { id2label: { 0: 'LABEL_0' }, label2id: { LABEL_0: 0 } } : {}),
      }),
    )
    const weights = preset.weights.dtype === 'q8' ? 'int8' : 'fp32'
    await writeFile(
      join(dir, 'onnx', `${preset.weights.file}.onnx`),
      encoderOnnx({ ...preset.architecture, weights }, head),
    )
    await writeFile(marker, GENERATOR_VERSION)
  }
  return { modelsDir, model: preset.id }
}

/** A shape-true GGUF of an LLM preset under cacheDir/gguf/, generated on first use. */
export async function shapeTrueDecoder({
  cacheDir,
  preset,
}: {
  cacheDir: string
  preset: LlmPreset
}): Promise<string> {
  const path = join(cacheDir, 'gguf', preset.file)
  const marker = `${path}.complete`
  if (!(await isComplete(marker))) {
    await mkdir(dirname(path), { recursive: true })
    await writeDecoderGguf(path, preset.architecture)
    await writeFile(marker, GENERATOR_VERSION)
  }
  return path
}

import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { findPreset, type OnnxDtype } from '@rag/config'
import { ChecksumError, type DownloadProgress, downloadFile, MissingFileError } from './download-file.ts'
import { withModelLock } from './model-lock.ts'

// transformers.js names its ONNX weights by dtype.
const WEIGHTS: Record<OnnxDtype, string> = {
  q8: 'onnx/model_quantized.onnx',
  fp32: 'onnx/model.onnx',
  fp16: 'onnx/model_fp16.onnx',
  int8: 'onnx/model_int8.onnx',
  uint8: 'onnx/model_uint8.onnx',
  q4: 'onnx/model_q4.onnx',
  bnb4: 'onnx/model_bnb4.onnx',
}

/** The files transformers.js reads for a text model (tokenizer, config, the dtype's weights). */
export function transformersFiles(dtype: OnnxDtype) {
  return {
    required: ['config.json', 'tokenizer.json', 'tokenizer_config.json', WEIGHTS[dtype]],
    optional: ['special_tokens_map.json'],
  }
}

export interface LocalModel {
  /** The folder the model is read from: MODELS_DIR/<org>/<name>. */
  dir: string
  /** Files it needs that are not there. */
  missing: string[]
  /** Bytes of the files that are. */
  bytes: number
}

/** Whether a transformers.js model is complete under MODELS_DIR, in the hub's layout. */
export async function localModel(modelsDir: string, model: string, dtype: OnnxDtype): Promise<LocalModel> {
  const dir = resolve(modelsDir, model)
  const missing: string[] = []
  let bytes = 0
  for (const file of transformersFiles(dtype).required) {
    const info = await stat(join(dir, file)).catch(() => null)
    if (info?.isFile()) bytes += info.size
    else missing.push(file)
  }
  return { dir, missing, bytes }
}

const ATTEMPTS = 4

/** A dropped connection is resumed (up to ATTEMPTS in all); a wrong checksum or a 404 is final. */
async function downloadResuming(options: Parameters<typeof downloadFile>[0]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await downloadFile(options)
    } catch (error) {
      if (error instanceof ChecksumError || error instanceof MissingFileError || attempt >= ATTEMPTS)
        throw error
    }
  }
}

export interface EnsureModelOptions {
  modelsDir: string
  model: string
  dtype: OnnxDtype
  /** The hub or mirror, ending with "/". */
  endpoint: string
  onProgress?: (progress: DownloadProgress) => void
}

/**
 * Makes MODELS_DIR/<model> complete: each missing file downloaded (resumable, sha256-checked
 * against the registry's pin or the hub's hash) under a lock every process shares, so concurrent
 * starts download once. Returns the files it fetched.
 */
export async function ensureTransformersModel(options: EnsureModelOptions): Promise<string[]> {
  const dir = resolve(options.modelsDir, options.model)
  const preset = findPreset(options.model)
  const pinned = preset?.sha256 ?? {}
  const exported = preset && 'onnxExport' in preset ? preset.onnxExport : undefined
  const { required, optional } = transformersFiles(options.dtype)
  const absent = async (file: string) => !(await stat(join(dir, file)).catch(() => null))?.isFile()
  if (!(await Promise.all(required.map(absent))).some(Boolean)) return []
  return withModelLock(dir, async () => {
    const fetched: string[] = []
    for (const file of [...required, ...optional]) {
      if (!(await absent(file))) continue
      // Not on the hub to fetch: the rest is fetched, and the export step named.
      if (exported && file === WEIGHTS[options.dtype]) continue
      try {
        await downloadResuming({
          url: `${options.endpoint}${options.model}/resolve/main/${file}`,
          destination: join(dir, file),
          sha256: pinned[file],
          onProgress: options.onProgress,
        })
        fetched.push(file)
      } catch (error) {
        if (error instanceof MissingFileError && optional.includes(file)) continue
        throw error
      }
    }
    if (exported && (await absent(WEIGHTS[options.dtype])))
      throw new MissingFileError(exportStep(options.model, exported, dir, WEIGHTS[options.dtype]))
    return fetched
  })
}

/** What to run once for a model whose repository publishes no ONNX weights. */
export function exportStep(model: string, task: string, dir: string, weights: string): string {
  return `${model} publishes no ONNX weights (safetensors only), so there is no ${weights} to download: export it once where Python is available, \`pip install "optimum[onnxruntime]" && optimum-cli export onnx --model ${model} --task ${task} /tmp/onnx-export && mkdir -p ${join(dir, 'onnx')} && cp /tmp/onnx-export/model.onnx ${join(dir, weights)}\` (docs/models.md, "Models without ONNX weights")`
}

import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { OnnxDtype } from '@rag/config'

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
  for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', WEIGHTS[dtype]]) {
    const info = await stat(join(dir, file)).catch(() => null)
    if (info?.isFile()) bytes += info.size
    else missing.push(file)
  }
  return { dir, missing, bytes }
}

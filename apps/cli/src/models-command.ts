import { access } from 'node:fs/promises'
import type { Writable } from 'node:stream'
import type { ModelsSection } from '@rag/config'
import { loadTransformersEmbedder, localModel } from '@rag/embeddings'
import { resolveModelPath } from '@rag/llm'
import type { Logger } from '@rag/log'
import { loadCrossEncoder } from '@rag/reranking'

export type ModelsAction = 'list' | 'verify' | 'pull'

interface ModelLine {
  role: 'embedding' | 'reranker' | 'llm'
  model: string
  present: boolean
  where: string
  detail: string
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1048576)} MB`

/** Where each configured model is (or would be) under MODELS_DIR, and what of it is missing. */
async function inventory(models: ModelsSection, logger: Logger): Promise<ModelLine[]> {
  const lines: ModelLine[] = []
  const transformers = [
    { role: 'embedding' as const, model: models.embedding.model, dtype: models.embedding.dtype },
    { role: 'reranker' as const, model: models.reranker, dtype: models.rerankerDtype },
  ]
  for (const { role, model, dtype } of transformers) {
    if (!model) continue
    const local = await localModel(models.dir, model, dtype)
    lines.push({
      role,
      model,
      present: local.missing.length === 0,
      where: local.dir,
      detail: local.missing.length === 0 ? megabytes(local.bytes) : `missing ${local.missing.join(', ')}`,
    })
  }
  if (models.llm) {
    const located = await resolveModelPath({
      model: models.llm,
      modelsDir: models.dir,
      allowDownload: false,
      logger,
    })
      .then(async (path) => {
        await access(path)
        return { path, error: null }
      })
      .catch((error: unknown) => ({
        path: null,
        error: error instanceof Error ? error.message : String(error),
      }))
    lines.push({
      role: 'llm',
      model: models.llm,
      present: located.path !== null,
      where: located.path ?? models.dir,
      detail: located.path ? 'GGUF' : `missing (${located.error?.split('\n')[0]})`,
    })
  }
  return lines
}

/**
 * `pnpm models list` prints each configured model, present or missing, with its size and folder;
 * `verify` does the same and exits 1 when one is missing; `pull` downloads whatever is missing
 * now (from MODEL_ENDPOINT) instead of on first use, then lists.
 */
export async function runModelsCommand(
  action: ModelsAction,
  models: ModelsSection,
  { output, logger }: { output: Writable; logger: Logger },
): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  if (action === 'pull') {
    const download = { modelsDir: models.dir, allowDownload: true, endpoint: models.endpoint, logger }
    const { model, dim, recipe, dtype } = models.embedding
    if (model) await (await loadTransformersEmbedder({ ...download, model, dim, recipe, dtype })).close?.()
    if (models.reranker)
      await (
        await loadCrossEncoder({ ...download, model: models.reranker, dtype: models.rerankerDtype })
      ).close()
    if (models.llm) await resolveModelPath({ ...download, model: models.llm })
  }
  const lines = await inventory(models, logger)
  if (lines.length === 0)
    write('no models configured (EMBEDDING_MODEL, RERANKER_MODEL and LLM_MODEL are none)')
  for (const line of lines) {
    write(
      `${line.role.padEnd(9)} ${line.present ? 'present' : 'MISSING'}  ${line.model}  ${line.detail}  ${line.where}`,
    )
  }
  const missing = lines.filter((line) => !line.present)
  if (missing.length > 0 && action !== 'list') {
    write(
      `${missing.length} missing: run \`pnpm models pull\` where the hub (or MODEL_ENDPOINT) is reachable, or place the files as the README says`,
    )
    return 1
  }
  return 0
}

import { access } from 'node:fs/promises'
import { join } from 'node:path'
import type { Writable } from 'node:stream'
import { findPreset, type GenerationSection, type ModelsSection } from '@rag/config'
import { openAiCompatibleGenerator, resolveModelPath, verifyModelFile } from '@rag/llm'
import type { Logger } from '@rag/log'
import { type DownloadProgress, ensureTransformersModel, localModel, sha256Of } from '@rag/model-download'
import { MultiBar, Presets } from 'cli-progress'

export type ModelsAction = 'list' | 'verify' | 'pull'

interface ModelLine {
  role: 'embedding' | 'reranker' | 'llm'
  model: string
  present: boolean
  where: string
  detail: string
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1048576)} MB`

/** Files whose bytes differ from the registry's pinned sha256 (verify reads every pinned file). */
async function corruptFiles(dir: string, model: string): Promise<string[]> {
  const pinned = Object.entries(findPreset(model)?.sha256 ?? {})
  const corrupt: string[] = []
  for (const [file, sha256] of pinned) {
    const actual = await sha256Of(join(dir, file)).catch(() => null)
    if (actual !== null && actual !== sha256) corrupt.push(file)
  }
  return corrupt
}

/** Where each configured model is (or would be) under MODELS_DIR, and what of it is missing. */
async function inventory(
  models: ModelsSection,
  generation: GenerationSection,
  logger: Logger,
  checksums: boolean,
): Promise<ModelLine[]> {
  const lines: ModelLine[] = []
  const transformers = [
    { role: 'embedding' as const, model: models.embedding.model, dtype: models.embedding.dtype },
    { role: 'reranker' as const, model: models.reranker, dtype: models.rerankerDtype },
  ]
  for (const { role, model, dtype } of transformers) {
    if (!model) continue
    const local = await localModel(models.dir, model, dtype)
    const corrupt = checksums ? await corruptFiles(local.dir, model) : []
    lines.push({
      role,
      model,
      present: local.missing.length === 0 && corrupt.length === 0,
      where: local.dir,
      detail:
        corrupt.length > 0
          ? `sha256 mismatch: ${corrupt.join(', ')} (delete and pull again)`
          : local.missing.length === 0
            ? `${megabytes(local.bytes)}${checksums && findPreset(model) ? ', sha256 ok' : ''}`
            : `missing ${local.missing.join(', ')}`,
    })
  }
  if (models.llm && generation.backend === 'openai-compatible') {
    // Nothing to download: the LLM server has the model, or says which it has.
    const server = await openAiCompatibleGenerator({
      baseUrl: generation.baseUrl ?? '',
      apiKey: generation.apiKey,
      model: models.llm,
      contextSize: generation.contextSize,
      timeoutMs: generation.timeoutMs,
    })
    const served = await server.check().then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    lines.push({
      role: 'llm',
      model: models.llm,
      present: served === null,
      where: generation.baseUrl ?? '',
      detail: served === null ? 'served by the LLM server' : `not served (${served})`,
    })
  } else if (models.llm) {
    const located = await resolveModelPath({
      model: models.llm,
      modelsDir: models.dir,
      allowDownload: false,
      logger,
    })
      .then(async (path) => {
        await access(path)
        if (checksums) await verifyModelFile(models.llm ?? '', path)
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
      detail: located.path
        ? 'GGUF'
        : `missing (${llmMissingReason(located.error ?? '', models.llm, models)})`,
    })
  }
  return lines
}

/**
 * Why the GGUF is not there, in this command's terms: listing never downloads, so the resolver's
 * "download is disabled" would be untrue when downloads are on.
 */
function llmMissingReason(error: string, model: string, models: ModelsSection): string {
  if (!/No model file found|ENOENT/i.test(error)) return error.split('\n')[0] ?? error
  if (!/^(hf:|https?:)/.test(model))
    return `not in ${models.dir}: place the GGUF there (LLM_MODEL names a file)`
  return models.allowDownload
    ? `not downloaded yet: \`pnpm rag models pull\` fetches it (or the LLM worker on first use)`
    : `not in ${models.dir}, and downloads are off (ALLOW_MODEL_DOWNLOAD=false): place the GGUF there`
}

/**
 * Downloads every configured model's missing files, with a progress bar per file. One model that
 * cannot be fetched does not stop the others: each failure is returned, with its reason.
 */
async function pull(
  models: ModelsSection,
  generation: GenerationSection,
  logger: Logger,
): Promise<{ model: string; error: string }[]> {
  const failures: { model: string; error: string }[] = []
  const attempt = async (model: string, fetch: () => Promise<unknown>) => {
    try {
      await fetch()
    } catch (error) {
      failures.push({ model, error: error instanceof Error ? error.message : String(error) })
    }
  }
  const bars = new MultiBar(
    { format: '{file} [{bar}] {percentage}% {value}/{total} MB', hideCursor: true, noTTYOutput: false },
    Presets.shades_classic,
  )
  const barOf = new Map<string, ReturnType<MultiBar['create']>>()
  const onProgress = ({ file, received, total }: DownloadProgress) => {
    const bar = barOf.get(file) ?? bars.create(Math.round(total / 1048576), 0, { file })
    barOf.set(file, bar)
    bar.update(Math.round(received / 1048576), { file })
  }
  try {
    const transformers = [
      { model: models.embedding.model, dtype: models.embedding.dtype },
      { model: models.reranker, dtype: models.rerankerDtype },
    ]
    for (const { model, dtype } of transformers) {
      if (model)
        await attempt(model, () =>
          ensureTransformersModel({
            modelsDir: models.dir,
            model,
            dtype,
            endpoint: models.endpoint,
            onProgress,
          }),
        )
    }
    const llm = models.llm
    if (llm && generation.backend === 'llama-cpp')
      await attempt(llm, async () => {
        const path = await resolveModelPath({
          model: llm,
          modelsDir: models.dir,
          allowDownload: true,
          endpoint: models.endpoint,
          logger,
        })
        await verifyModelFile(llm, path)
      })
  } finally {
    bars.stop()
  }
  return failures
}

/**
 * `pnpm models list` prints each configured model, present or missing, with its size and folder;
 * `verify` also checks the files' sha256 against the registry's pins and exits 1 when one is missing
 * or corrupt; `pull` downloads whatever is missing now (from MODEL_ENDPOINT, resuming cut
 * downloads, checksums verified) instead of on first use, then verifies.
 */
export async function runModelsCommand(
  action: ModelsAction,
  { models, generation }: { models: ModelsSection; generation: GenerationSection },
  { output, logger, json = false }: { output: Writable; logger: Logger; json?: boolean },
): Promise<number> {
  const write = (line: string) => output.write(`${line}\n`)
  const failures = action === 'pull' ? await pull(models, generation, logger) : []
  const lines = await inventory(models, generation, logger, action !== 'list')
  const missing = lines.filter((line) => !line.present)
  const failed = missing.length > 0 && action !== 'list'
  if (json) {
    write(JSON.stringify({ models: lines, missing: missing.length, failures }, null, 2))
    return failed ? 1 : 0
  }
  for (const { model, error } of failures) write(`pull ${model}: ${error}`)
  if (lines.length === 0)
    write('no models configured (EMBEDDING_MODEL, RERANKER_MODEL and LLM_MODEL are none)')
  for (const line of lines) {
    write(
      `${line.role.padEnd(9)} ${line.present ? 'present' : 'MISSING'}  ${line.model}  ${line.detail}  ${line.where}`,
    )
  }
  if (failed) {
    write(
      `${missing.length} missing: run \`pnpm models pull\` where the hub (or MODEL_ENDPOINT) is reachable, or place the files as docs/models.md says`,
    )
    return 1
  }
  return 0
}

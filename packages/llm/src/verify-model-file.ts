import { readFile, rm, stat, writeFile } from 'node:fs/promises'
import { findPreset } from '@rag/config'
import { ChecksumError, sha256Of } from '@rag/model-download'

/**
 * Checks a GGUF against the sha256 the registry pins for its preset (models without a pin are
 * taken as they are). A mismatch deletes the file and throws: a truncated or tampered download is
 * never loaded. Verified files get a `<file>.sha256` note (with the size and time it was checked),
 * so each start does not re-read a gigabyte.
 */
export async function verifyModelFile(model: string, path: string): Promise<void> {
  const preset = findPreset(model)
  const pinned = preset?.task === 'generation' ? preset.sha256[preset.file] : undefined
  if (!pinned) return
  const info = await stat(path)
  const note = `${pinned} ${info.size} ${info.mtimeMs}`
  if ((await readFile(`${path}.sha256`, 'utf8').catch(() => '')) === note) return
  const actual = await sha256Of(path)
  if (actual !== pinned) {
    await rm(path, { force: true })
    throw new ChecksumError(
      `${path}: sha256 ${actual} but the registry pins ${pinned} for ${model}; the file was deleted (run \`pnpm models pull\` again)`,
    )
  }
  await writeFile(`${path}.sha256`, note)
}

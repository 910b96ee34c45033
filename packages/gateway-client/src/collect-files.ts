import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { detectSourceType } from '@rag/parsers'

/** Files to ingest from the given files and folders (recursively); unsupported or missing ones are reported. */
export async function collectFiles(
  paths: string[],
): Promise<{ files: string[]; skipped: { path: string; reason: string }[] }> {
  const files: string[] = []
  const skipped: { path: string; reason: string }[] = []
  const visit = async (path: string, explicit: boolean) => {
    const info = await stat(path).catch(() => null)
    if (!info) return skipped.push({ path, reason: 'no such file or folder' })
    if (info.isDirectory()) {
      for (const entry of (await readdir(path)).sort()) {
        if (!entry.startsWith('.')) await visit(join(path, entry), false)
      }
    } else if (detectSourceType(path)) {
      files.push(path)
    } else if (explicit) {
      skipped.push({ path, reason: 'unsupported file type' })
    }
  }
  for (const path of paths) await visit(path, true)
  return { files, skipped }
}

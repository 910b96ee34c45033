import { readdir, stat } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import { sourceTypeOf } from '@rag/api-contract/source-types'

export interface LocalFile {
  path: string
  /** The document's name: its path inside the folder given (`a/README.md`), or its file name. */
  name: string
}

export interface CollectedFiles {
  files: LocalFile[]
  /** Paths given that cannot be ingested (missing, unsupported): failures. */
  skipped: { path: string; reason: string }[]
  /** Files found in folders that no parser reads: reported, not failures. */
  ignored: { path: string; reason: string }[]
}

/** Files to ingest from the given files and folders (recursively); what cannot be is reported. */
export async function collectFiles(paths: string[]): Promise<CollectedFiles> {
  const files: LocalFile[] = []
  const skipped: { path: string; reason: string }[] = []
  const ignored: { path: string; reason: string }[] = []
  const visit = async (path: string, folder: string | null) => {
    const info = await stat(path).catch(() => null)
    if (!info) return skipped.push({ path, reason: 'no such file or folder' })
    if (info.isDirectory()) {
      for (const entry of (await readdir(path)).sort()) {
        if (!entry.startsWith('.')) await visit(join(path, entry), folder ?? path)
      }
    } else if (sourceTypeOf(path)) {
      // Names relative to the folder keep a/README.md and b/README.md apart.
      files.push({ path, name: folder ? relative(folder, path).split(sep).join('/') : basename(path) })
    } else {
      ;(folder === null ? skipped : ignored).push({ path, reason: 'unsupported file type' })
    }
  }
  for (const path of paths) await visit(path, null)
  return { files, skipped, ignored }
}

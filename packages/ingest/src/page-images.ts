import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pdfPageInfo, renderPdfPage } from '@rag/parsers'
import pLimit from 'p-limit'
import type { DocumentRecord } from './repository/documents.ts'

/** Widths a page is rendered at: what a phone and a desktop viewer show, and a thumbnail. */
export const PAGE_WIDTHS = [320, 800, 1400] as const

export interface PageInfo {
  page: number
  pages: number
  /** The page's size in PDF points (what regions are measured in). */
  width: number
  height: number
}

/**
 * Pages of stored PDFs as pictures, for a viewer to show a cited passage's regions on: rendered on
 * demand (pdftoppm under the parse's memory cap), at most `concurrency` at once, kept in `cacheDir`
 * (at most `maxCached` pictures; the oldest go first) so a page is rendered once per width. A page
 * past the document's last, or a document that is not a PDF, is null.
 */
export function pageImages({
  cacheDir,
  memoryMb,
  concurrency = 2,
  maxCached = 500,
}: {
  cacheDir: string
  memoryMb?: number
  concurrency?: number
  maxCached?: number
}) {
  const limit = pLimit(concurrency)
  const infos = new Map<string, Promise<PageInfo | null>>()
  const info = (document: DocumentRecord, page: number): Promise<PageInfo | null> => {
    if (document.sourceType !== 'pdf' || !Number.isInteger(page) || page < 1) return Promise.resolve(null)
    const key = `${document.id}:${document.contentHash}:${page}`
    let known = infos.get(key)
    if (!known) {
      known = limit(() => pdfPageInfo(document.storedPath, page, { memoryMb })).then((found) =>
        found && page <= found.pages && found.width > 0 ? { page, ...found } : null,
      )
      infos.set(key, known)
      if (infos.size > 5000) infos.delete(infos.keys().next().value as string)
    }
    return known
  }
  const prune = async () => {
    const names = (await readdir(cacheDir).catch(() => [] as string[])).filter((name) =>
      name.endsWith('.png'),
    )
    if (names.length <= maxCached) return
    const dated = await Promise.all(
      names.map(async (name) => ({
        name,
        at: (await stat(join(cacheDir, name)).catch(() => null))?.mtimeMs ?? 0,
      })),
    )
    dated.sort((a, b) => a.at - b.at)
    await Promise.all(
      dated.slice(0, names.length - maxCached).map(({ name }) => rm(join(cacheDir, name), { force: true })),
    )
  }
  return {
    info,
    /** The page's picture at the nearest of PAGE_WIDTHS at or above `width`: its path, or null. */
    async image(document: DocumentRecord, page: number, width: number): Promise<string | null> {
      if (!(await info(document, page))) return null
      const at = PAGE_WIDTHS.find((each) => each >= width) ?? (PAGE_WIDTHS.at(-1) as number)
      const path = join(cacheDir, `${document.id}-${document.contentHash.slice(0, 16)}-${page}-${at}.png`)
      if (
        await stat(path).then(
          () => true,
          () => false,
        )
      )
        return path
      await mkdir(cacheDir, { recursive: true })
      // Rendered beside, then moved into place: a reader never sees half a file.
      const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.png`
      try {
        await limit(() => renderPdfPage(document.storedPath, page, partial, { width: at, memoryMb }))
        await rename(partial, path)
      } catch (error) {
        await rm(partial, { force: true })
        throw error
      }
      void prune()
      return path
    },
  }
}

export type PageImages = ReturnType<typeof pageImages>

import { access, mkdir, readFile } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import {
  deleteDocument,
  findDocument,
  type IngestDeps,
  listDocuments,
  type RegisterOptions,
  registerDocument,
  UploadRejectedError,
} from '@rag/ingest'
import { detectSourceType } from '@rag/parsers'
import { watch } from 'chokidar'

export interface FolderWatcherOptions extends RegisterOptions {
  dir: string
  collection: string
}

export interface FolderWatcher {
  /** Resolves once the folder was scanned and documents of files removed meanwhile were deleted. */
  ready: Promise<void>
  /** Resolves when every event seen so far has been handled (tests, shutdown). */
  idle(): Promise<void>
  close(): Promise<void>
}

/**
 * Keeps a folder ingested. Added and changed files go through the upload path (unchanged content is
 * a no-op, so the scan at every start is cheap); removed files delete their document. Files removed
 * while the watcher was down are found at start by comparing the collection with the folder.
 */
export function startFolderWatcher(deps: IngestDeps, options: FolderWatcherOptions): FolderWatcher {
  const { dir, collection, logger } = { ...options, logger: deps.logger }
  let chain: Promise<unknown> = Promise.resolve()
  // One file event at a time, in order: a change right after an add must not race it.
  const serially = (task: () => Promise<unknown>) => {
    chain = chain
      .then(task)
      .catch((error: unknown) => logger.error({ err: error }, 'folder watch event failed'))
    return chain
  }
  const nameOf = (path: string) => relative(dir, path).split(sep).join('/')

  const ingest = (path: string) =>
    serially(async () => {
      if (!detectSourceType(path)) return
      try {
        const data = await readFile(path)
        const { action, document } = await registerDocument(deps, options, {
          filename: nameOf(path),
          data,
          collection,
          keepPath: true,
        })
        if (action !== 'unchanged')
          logger.info({ file: nameOf(path), documentId: document.id, action }, 'watched file queued')
      } catch (error) {
        if (!(error instanceof UploadRejectedError)) throw error
        logger.warn({ file: nameOf(path), reason: error.message }, 'watched file refused')
      }
    })

  const remove = (path: string) =>
    serially(async () => {
      const document = await findDocument(deps.pool, collection, nameOf(path))
      if (document && (await deleteDocument(deps, document.id)))
        logger.info({ file: nameOf(path) }, 'watched file removed')
    })

  const prune = () =>
    serially(async () => {
      for (const document of await listDocuments(deps.pool, { collection, limit: 100000 })) {
        const exists = await access(join(dir, document.filename)).then(
          () => true,
          () => false,
        )
        if (!exists && (await deleteDocument(deps, document.id))) {
          logger.info({ file: document.filename }, 'file removed while not watching: document deleted')
        }
      }
    })

  let watcher: ReturnType<typeof watch> | undefined
  const ready = (async () => {
    await mkdir(dir, { recursive: true })
    watcher = watch(dir, {
      ignored: (path) => path !== dir && /(^|[/\\])\./.test(relative(dir, path)),
      // A file being copied in is ingested once it stopped growing, not half-written.
      awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 50 },
    })
    watcher.on('add', ingest).on('change', ingest).on('unlink', remove)
    watcher.on('error', (error) => logger.error({ err: error }, 'folder watch error'))
    await new Promise<void>((resolve) => watcher?.once('ready', () => resolve()))
    await prune()
    logger.info({ dir, collection }, 'watching folder')
  })()

  return {
    ready,
    idle: async () => {
      let seen: Promise<unknown> | undefined
      while (seen !== chain) {
        seen = chain
        await chain
      }
    },
    close: async () => {
      await ready.catch(() => undefined)
      await watcher?.close()
      await chain
    },
  }
}

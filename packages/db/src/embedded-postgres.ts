import { mkdir } from 'node:fs/promises'
import { createServer, type Socket } from 'node:net'
import type { PGLiteSocketHandler } from '@electric-sql/pglite-socket'
import { ProtocolAwareQueue } from './protocol-aware-queue.ts'

export interface EmbeddedPostgres {
  /** Connection string every process uses, exactly as for a real Postgres. */
  url: string
  close(): Promise<void>
}

export interface EmbeddedPostgresOptions {
  /** Folder to persist to; undefined keeps everything in memory (tests). */
  dir?: string
  host?: string
  port?: number
  /** Client connections multiplexed onto PGlite's one session. */
  maxConnections?: number
}

type QueueOption = ConstructorParameters<typeof PGLiteSocketHandler>[0]['queryQueue']

/** PGlite with pgvector, served over the Postgres wire protocol so every process can share it. */
export async function startEmbeddedPostgres({
  dir,
  host = '127.0.0.1',
  port = 0,
  maxConnections = 64,
}: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  if (dir) await mkdir(dir, { recursive: true })
  // Imported here: every process imports @rag/db, one process (the supervisor) serves PGlite.
  const [{ PGlite }, { btree_gin }, { vector }, { PGLiteSocketHandler }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite-socket'),
  ])
  // pgvector for the vectors; btree_gin for the keyword index keyed by collection (migration 0030).
  const db = await PGlite.create(dir ?? 'memory://', { extensions: { vector, btree_gin } })
  // pglite-socket's handler does the wire protocol; the queue deciding who runs next is ours.
  const queue = new ProtocolAwareQueue(db) as unknown as QueueOption
  const handlers = new Set<PGLiteSocketHandler>()
  const server = createServer((socket: Socket) => {
    if (handlers.size >= maxConnections) {
      socket.end()
      return
    }
    const handler = new PGLiteSocketHandler({ queryQueue: queue, closeOnDetach: true })
    handlers.add(handler)
    const forget = () => handlers.delete(handler)
    handler.addEventListener('close', forget)
    handler.addEventListener('error', forget)
    handler.attach(socket).catch(() => {
      forget()
      socket.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const address = server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port
  let closed: Promise<void> | undefined
  return {
    url: `postgres://postgres@${host}:${boundPort}/postgres`,
    close: () => {
      closed ??= (async () => {
        await Promise.all([...handlers].map((handler) => handler.detach(true)))
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await db.close()
      })()
      return closed
    },
  }
}

import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'

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
  /** PGlite has one session; the server multiplexes this many client connections onto it. */
  maxConnections?: number
}

/** PGlite with pgvector, served over the Postgres wire protocol so every process can share it. */
export async function startEmbeddedPostgres({
  dir,
  host = '127.0.0.1',
  port = 0,
  maxConnections = 64,
}: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgres> {
  if (dir) await mkdir(dir, { recursive: true })
  const db = await PGlite.create(dir ?? 'memory://', { extensions: { vector } })
  const server = new PGLiteSocketServer({ db, host, port, maxConnections })
  await server.start()
  const [boundHost, boundPort] = server.getServerConn().split(':')
  let closed: Promise<void> | undefined
  return {
    url: `postgres://postgres@${boundHost ?? host}:${boundPort ?? port}/postgres`,
    close: () => {
      closed ??= (async () => {
        await server.stop()
        await db.close()
      })()
      return closed
    },
  }
}

import pg from 'pg'

/** Where a test database listens: the recorder keeps only what is sent there. */
export interface RecordedServer {
  host: string
  port: number
  database: string
}

export interface SqlRecorder {
  /** The distinct statements sent since the last take, as sent (normalised later, by the reader). */
  take(): string[]
}

interface ClientTarget {
  host?: string
  port?: number
  database?: string
}

// One per process: vitest runs many files in one worker (isolate: false), and pg's prototype is
// shared by them all, so it is patched once and each file takes what was sent during it.
const recorders = new Map<string, Set<string>>()
const PATCHED = Symbol.for('rag.test.sqlRecorder')
const keyOf = ({ host, port, database }: ClientTarget) => `${host}:${port}/${database}`

function patchOnce() {
  const prototype = pg.Client.prototype as unknown as Record<symbol, unknown> & {
    query: typeof pg.Client.prototype.query
  }
  if (prototype[PATCHED]) return
  prototype[PATCHED] = true
  const original = prototype.query
  prototype.query = function query(this: pg.Client & ClientTarget, config: unknown, ...rest: unknown[]) {
    const seen = recorders.get(keyOf(this))
    if (seen) {
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text
      if (typeof text === 'string') seen.add(text)
    }
    return (original as (...args: unknown[]) => unknown).call(this, config, ...rest)
  } as typeof original
}

/** Records every statement this process sends, through pg, to the given server and database. */
export function recordSql(url: string): SqlRecorder {
  const parsed = new URL(url)
  const server: RecordedServer = {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    database: decodeURIComponent(parsed.pathname.slice(1)) || 'postgres',
  }
  patchOnce()
  const key = keyOf(server)
  const seen = recorders.get(key) ?? new Set<string>()
  recorders.set(key, seen)
  return {
    take: () => {
      const statements = [...seen]
      seen.clear()
      return statements
    },
  }
}

import pg from 'pg'

export interface SqlRecorder {
  /** The distinct statements sent since the last take, as sent (normalised later, by the reader). */
  take(): string[]
}

interface ClientTarget {
  host?: string
  port?: number
  database?: string
}

// One per process: vitest runs many files in one worker (isolate: false), and pg's prototypes are
// shared by them all, so they are patched once and each file takes what was sent during it.
const recorders = new Map<string, Set<string>>()
const PATCHED = Symbol.for('rag.test.sqlRecorder')
const keyOf = ({ host, port, database }: ClientTarget) => `${host}:${port}/${database}`

// Frames that only pass a statement on: pg itself, node, this file, and our pool helpers.
const PASSING_ON = /node_modules|node:|\(native\)|sql-recorder\.ts|create-pool\.ts/
// What tests send themselves (their checks, their setup): not the platform's SQL.
const TEST_SIDE = /\.test\.tsx?|\/testing\/|\/testing\.ts|testing-server\.ts|test-gateway\.ts/

/**
 * Whether the statement being sent now is the platform's own: the first frame of the stack that
 * is not pg, node or a pass-through is a source file of ours that is not a test or a test helper.
 * A statement a test sends to check on the platform (`SELECT count(*) FROM documents …`) is the
 * test's, and a query pg sends from its pool's callback was judged where pool.query was called.
 */
function sentByPlatform(): boolean {
  const frames = (new Error().stack ?? '').split('\n').slice(1)
  const caller = frames.find((frame) => !PASSING_ON.test(frame))
  return caller !== undefined && !TEST_SIDE.test(caller)
}

const textOf = (config: unknown) =>
  typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text

type Query = (...args: unknown[]) => unknown

function patchOnce() {
  const client = pg.Client.prototype as unknown as Record<symbol, unknown> & { query: Query }
  if (client[PATCHED]) return
  client[PATCHED] = true
  const clientQuery = client.query
  client.query = function query(this: pg.Client & ClientTarget, config: unknown, ...rest: unknown[]) {
    const seen = recorders.get(keyOf(this))
    const text = textOf(config)
    if (seen && typeof text === 'string' && !seen.has(text) && sentByPlatform()) seen.add(text)
    return clientQuery.call(this, config, ...rest)
  }
  const pool = pg.Pool.prototype as unknown as { query: Query }
  const poolQuery = pool.query
  // Judged here, where the caller still is on the stack (pg runs the client's query from a callback).
  pool.query = function query(
    this: pg.Pool & { options: ClientTarget },
    config: unknown,
    ...rest: unknown[]
  ) {
    const seen = recorders.get(keyOf(targetOf(this.options)))
    const text = textOf(config)
    if (seen && typeof text === 'string' && !seen.has(text) && sentByPlatform()) seen.add(text)
    return poolQuery.call(this, config, ...rest)
  }
}

function targetOf(options: ClientTarget & { connectionString?: string }): ClientTarget {
  if (!options.connectionString) return options
  const url = new URL(options.connectionString)
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)),
  }
}

/** Records every statement of the platform's own that this process sends, through pg, to the given server and database. */
export function recordSql(url: string): SqlRecorder {
  patchOnce()
  const key = keyOf(targetOf({ connectionString: url }))
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

import type { PGlite } from '@electric-sql/pglite'

interface Pending {
  handlerId: number
  message: Uint8Array
  onData: (data: Uint8Array) => void
  resolve: (bytes: number) => void
  reject: (error: unknown) => void
}

// Frontend messages of the extended query protocol: between the first of them and Sync, the
// session's unnamed statement and portal belong to one client.
const EXTENDED = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'F'].map((c) => c.charCodeAt(0)))
const SYNC = 'S'.charCodeAt(0)
const QUERY = 'Q'.charCodeAt(0)

/**
 * PGlite has one session; the socket server multiplexes client connections onto it. Its own
 * queue interleaves connections between any two messages, which breaks a Parse/Bind/Execute/Sync
 * sequence when another connection's message lands in the middle ("bind message supplies 3
 * parameters…"). This queue gives the session to one connection from its first extended-protocol
 * message to its Sync, and for the whole of a transaction it opens.
 */
export class ProtocolAwareQueue {
  private readonly pending: Pending[] = []
  private owner: number | null = null
  private processing = false
  /** Each connection's `SET search_path …`, and the one the shared session has now. */
  private readonly searchPaths = new Map<number, string>()
  private appliedSearchPath: string | null = null

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending.push({ handlerId, message, onData, resolve, reject })
      void this.process()
    })
  }

  getQueueLength(): number {
    return this.pending.length
  }

  clearQueueForHandler(handlerId: number): void {
    this.searchPaths.delete(handlerId)
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const item = this.pending[i]
      if (item?.handlerId === handlerId) {
        this.pending.splice(i, 1)
        item.reject(new Error('connection closed'))
      }
    }
  }

  /** A connection that disconnects mid-sequence or mid-transaction must not hold the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK')
    this.owner = null
    void this.process()
  }

  /**
   * Session settings belong to the one PGlite session, not to a connection: a pool on another
   * schema would otherwise read and write the last one set (seen: `pnpm eval`'s schema and the
   * user's interleaved on one embedded server). Each connection's search_path is remembered and
   * set again when the session passes to it.
   */
  private async restoreSearchPath(item: Pending): Promise<void> {
    if (item.message[0] === QUERY) {
      const sql = new TextDecoder().decode(item.message.subarray(5, -1)).trim().replace(/;$/, '')
      if (/^set\s+search_path\b/i.test(sql)) {
        this.searchPaths.set(item.handlerId, sql)
        this.appliedSearchPath = sql
        return
      }
    }
    const wanted = this.searchPaths.get(item.handlerId)
    if (wanted && wanted !== this.appliedSearchPath) {
      await this.db.exec(wanted)
      this.appliedSearchPath = wanted
    }
  }

  private next(): Pending | undefined {
    const index = this.owner === null ? 0 : this.pending.findIndex((item) => item.handlerId === this.owner)
    return index < 0 ? undefined : this.pending.splice(index, 1)[0]
  }

  private async process(): Promise<void> {
    if (this.processing) return
    this.processing = true
    try {
      for (let item = this.next(); item; item = this.next()) {
        let bytes = 0
        const current = item
        try {
          await this.restoreSearchPath(current)
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length
                current.onData(data)
              },
            }),
          )
        } catch (error) {
          current.reject(error)
          continue
        }
        const type = current.message[0] ?? 0
        if (EXTENDED.has(type)) this.owner = current.handlerId
        else if (type === SYNC || type === QUERY)
          this.owner = this.db.isInTransaction() ? current.handlerId : null
        current.resolve(bytes)
      }
    } finally {
      this.processing = false
    }
  }
}

import { startEmbeddedPostgres } from '../embedded-postgres.ts'

// One in-memory PGlite served over the wire, in a process of its own (pglite-servers-setup.ts
// starts one per vitest worker): its line on stdout is its URL; it ends when told to (SIGTERM)
// or when the run that started it is gone (stdin closed), so no PGlite outlives a crashed run.
const server = await startEmbeddedPostgres()
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`)
const stop = () => {
  void server.close().finally(() => process.exit(0))
}
process.once('SIGTERM', stop)
process.stdin.on('end', stop)
process.stdin.resume()

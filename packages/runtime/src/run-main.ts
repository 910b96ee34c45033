import { ConfigError } from '@rag/config'

/**
 * Runs a process's start function. A configuration error (it names the bad variable), or an error
 * marked `userFacing`, is printed as it is and exits 1 without a stack trace; anything else is
 * printed with its stack.
 */
export function runMain(start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    // Said as it is, without a stack: a bad setting, or a refusal a person acts on (already running).
    const userFacing = error instanceof Error && (error as { userFacing?: boolean }).userFacing === true
    if (error instanceof ConfigError || userFacing) {
      process.stderr.write(`${(error as Error).message}\n`)
    } else {
      process.stderr.write(
        `fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
    }
    process.exit(1)
  })
}

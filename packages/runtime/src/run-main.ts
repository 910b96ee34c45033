import { ConfigError } from '@rag/config'

/**
 * Runs a process's start function. A configuration error (it names the bad variable) is printed as
 * it is and exits 2 — the code every command of the platform gives a usage or configuration error;
 * an error marked `userFacing` is printed as it is and exits 1; anything else is printed with its
 * stack and exits 1.
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
    process.exit(error instanceof ConfigError ? 2 : 1)
  })
}

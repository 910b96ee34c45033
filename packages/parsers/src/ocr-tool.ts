import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type OcrToolFailure = 'not installed' | 'language missing' | 'timed out' | 'out of memory' | 'failed'

/** An OCR helper that did not do its work, and why, in words about the file (no command line). */
export class OcrToolError extends Error {
  constructor(
    readonly tool: string,
    readonly reason: OcrToolFailure,
    /** What the tool said, its paths taken out: for a reason a user reads. */
    readonly detail: string,
  ) {
    super(`${tool}: ${reason}${detail ? ` (${detail})` : ''}`)
    this.name = 'OcrToolError'
  }
}

// Runs the tool under an address-space limit (the shell's ulimit, inherited by what it execs),
// with one OpenMP thread (the workers' concurrency is what spreads work over the cores) and under
// coreutils' timeout, a little past ours: a tool whose parent was killed outright (no one left to
// enforce our time limit) still ends.
const LIMITED =
  'ulimit -v "$0" && export OMP_THREAD_LIMIT=1 && t="$1" && shift && exec timeout -s KILL "$t" "$@"'

/**
 * Runs pdftoppm, tesseract, pdfinfo or tiffsplit under the parse's memory cap and a time limit:
 * they are processes of their own, which the sandbox's cap on its Node child does not reach (a
 * huge page took pdftoppm to 3 GB). Being in the parse child's process group, they die with it.
 */
export async function runOcrTool(
  tool: string,
  args: string[],
  { memoryMb, timeoutMs, scratch }: { memoryMb?: number; timeoutMs: number; scratch?: string },
): Promise<string> {
  const [command, commandArgs] = memoryMb
    ? [
        'sh',
        ['-c', LIMITED, String(memoryMb * 1024), String(Math.ceil(timeoutMs / 1000) + 10), tool, ...args],
      ]
    : [tool, args]
  try {
    const { stdout } = await run(command, commandArgs, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 })
    return stdout
  } catch (error) {
    throw classify(tool, error, scratch)
  }
}

function classify(tool: string, error: unknown, scratch?: string): OcrToolError {
  const { code, killed, signal, stderr } = error as {
    code?: string | number
    killed?: boolean
    signal?: string | null
    stderr?: string
  }
  const said = String(stderr ?? '')
  if (code === 'ENOENT' || code === 127) return new OcrToolError(tool, 'not installed', '')
  if (/Failed loading language|Error opening data file/.test(said))
    return new OcrToolError(tool, 'language missing', '')
  if (killed && signal === 'SIGTERM') return new OcrToolError(tool, 'timed out', '')
  if (
    /bad_alloc|out of memory|cannot allocate|memory exhausted|Insufficient memory/i.test(said) ||
    signal === 'SIGSEGV'
  )
    return new OcrToolError(tool, 'out of memory', '')
  return new OcrToolError(tool, 'failed', withoutPaths(said, scratch))
}

/** The tool's last words, one line, without paths (a temp folder says nothing to a user). */
function withoutPaths(said: string, scratch?: string): string {
  const line =
    said
      .split('\n')
      .map((each) => each.trim())
      .filter((each) => each && !/^(Page \d+|Tesseract Open Source|Warning)/i.test(each))
      .at(-1) ?? ''
  const noScratch = scratch ? line.split(scratch).join('') : line
  return noScratch
    .replace(/(?:\/[\w.-]+)+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
}

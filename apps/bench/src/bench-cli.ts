/** A benchmark as `pnpm bench <name>` runs it: what it does, its options, and the run itself. */
export interface Bench<Config> {
  usage: string
  run: (config: Config, args: string[]) => Promise<void>
}

const isArgumentError = (error: unknown) =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')

/**
 * `pnpm bench <name> [options]`: the list of benchmarks, a benchmark's usage for `--help`, and a
 * command line it cannot read said in one line with its usage (exit 2), never a stack trace.
 */
export async function runBenchCommand<Config>(
  argv: string[],
  benches: Record<string, Bench<Config>>,
  { config, out, err }: { config: () => Config; out: (text: string) => void; err: (text: string) => void },
): Promise<number> {
  const [name = '', ...args] = argv
  const list = `usage: pnpm bench <${Object.keys(benches).join('|')}> [options]  (pnpm bench <name> --help)\n`
  const bench = benches[name]
  if (!bench) {
    const help = name === '--help' || name === '-h'
    ;(help ? out : err)(help || name === '' ? list : `error: no benchmark ${JSON.stringify(name)}\n${list}`)
    return help ? 0 : 2
  }
  if (args.includes('--help') || args.includes('-h')) {
    out(`usage: pnpm bench ${name} ${bench.usage}\n`)
    return 0
  }
  try {
    await bench.run(config(), args)
    return 0
  } catch (error) {
    if (!isArgumentError(error)) throw error
    err(`error: ${(error as Error).message}\nusage: pnpm bench ${name} ${bench.usage}\n`)
    return 2
  }
}

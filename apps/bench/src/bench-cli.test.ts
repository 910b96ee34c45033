import { parseArgs } from 'node:util'
import { describe, expect, it } from 'vitest'
import { type Bench, runBenchCommand } from './bench-cli.ts'

const benches: Record<string, Bench<null>> = {
  search: {
    usage: '[SIZES] [--corpus DIR]',
    run: async (_config, args) => {
      parseArgs({ args, allowPositionals: true, options: { corpus: { type: 'string' } } })
    },
  },
}

async function bench(argv: string[]) {
  const printed = { out: '', err: '' }
  const code = await runBenchCommand(argv, benches, {
    config: () => null,
    out: (text) => {
      printed.out += text
    },
    err: (text) => {
      printed.err += text
    },
  })
  return { code, ...printed }
}

describe('pnpm bench', () => {
  it('prints a benchmark’s usage for --help, exit 0, without running it', async () => {
    expect(await bench(['search', '--help'])).toEqual({
      code: 0,
      out: 'usage: pnpm bench search [SIZES] [--corpus DIR]\n',
      err: '',
    })
  })

  it('says an option it does not know in one line with the usage, exit 2, no stack', async () => {
    const { code, err } = await bench(['search', '--colour', 'red'])
    expect(code).toBe(2)
    expect(err).toMatch(/^error: Unknown option '--colour'.*\nusage: pnpm bench search \[SIZES\]/s)
    expect(err).not.toMatch(/\n\s+at /)
  })

  it('lists the benchmarks for an unknown one', async () => {
    const { code, err } = await bench(['searches'])
    expect(code).toBe(2)
    expect(err).toContain('error: no benchmark "searches"\nusage: pnpm bench <search>')
  })
})

import { benchConfig, processEnvironment } from '@rag/config'
import { runMain } from '@rag/runtime'
import { benchAsk } from './bench-ask.ts'
import { benchFiles } from './bench-files.ts'
import { benchIngest } from './bench-ingest.ts'
import { benchSearch } from './bench-search.ts'

const BENCHES: Record<string, (config: Parameters<typeof benchIngest>[0], args: string[]) => Promise<void>> =
  {
    ingest: benchIngest,
    search: benchSearch,
    ask: benchAsk,
    // pnpm bench files DIR…: real files of every kind through the pipeline (counts, memory, stalls).
    files: benchFiles,
  }

// pnpm bench <name>: prints figures; never asserts (goals are read, not enforced).
runMain(async () => {
  const name = process.argv[2] ?? ''
  const bench = BENCHES[name]
  if (!bench) {
    process.stderr.write(`usage: pnpm bench <${Object.keys(BENCHES).join('|')}>\n`)
    process.exit(2)
  }
  await bench(benchConfig.parse(processEnvironment()).bench, process.argv.slice(3))
  process.exit(0)
})

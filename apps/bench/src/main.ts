import { benchConfig, processEnvironment } from '@rag/config'
import { runMain } from '@rag/runtime'
import { benchIngest } from './bench-ingest.ts'

const BENCHES: Record<string, typeof benchIngest> = { ingest: benchIngest }

// pnpm bench <name>: prints figures; never asserts (goals are read, not enforced).
runMain(async () => {
  const name = process.argv[2] ?? ''
  const bench = BENCHES[name]
  if (!bench) {
    process.stderr.write(`usage: pnpm bench <${Object.keys(BENCHES).join('|')}>\n`)
    process.exit(2)
  }
  await bench(benchConfig.parse(processEnvironment()).bench)
  process.exit(0)
})

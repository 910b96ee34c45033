import { type BenchProcessConfig, benchConfig, processEnvironment } from '@rag/config'
import { runMain } from '@rag/runtime'
import { benchAsk } from './bench-ask.ts'
import { benchFiles } from './bench-files.ts'
import { benchIngest } from './bench-ingest.ts'
import { benchLayout } from './bench-layout.ts'
import { benchModels } from './bench-models.ts'
import { benchPartStatus } from './bench-part-status.ts'
import { benchRelevance } from './bench-relevance.ts'
import { benchScan } from './bench-scan.ts'
import { benchSearch } from './bench-search.ts'
import { benchTransfers } from './bench-transfers.ts'

const BENCHES: Record<string, (config: BenchProcessConfig, args: string[]) => Promise<void>> = {
  ingest: (config, args) => benchIngest(config, args),
  // pnpm bench search [10000,100000,1000000]: keyword search on real text.
  search: (config, args) => benchSearch(config.bench, args),
  // pnpm bench ask [10000,100000,1000000]: search per mode on real text, and POST /ask → done.
  ask: (config, args) => benchAsk(config.bench, args),
  // pnpm bench files DIR…: real files of every kind through the pipeline (counts, memory, stalls).
  files: (config, args) => benchFiles(config.bench, args, config.parsing.sandbox.memoryMb),
  // pnpm bench scan [PAGES] [--csv ROWS]: a scanned book (or a big CSV) with documents uploaded behind it.
  scan: (config, args) => benchScan(config, args),
  // pnpm bench transfers [N]: the gateway's memory under N parallel 49 MB uploads and downloads.
  transfers: (config, args) => benchTransfers(config.bench, args),
  // pnpm bench models [embedder|reranker|llm|ask]: real-size model costs with shape-true models.
  models: benchModels,
  // pnpm bench layout tables DIR | pages PATH… | vertical [PAGES]: tables (ICDAR 2013), parse time and
  // running lines against pdf-parse, vertical Japanese read from the text layer and from scans.
  layout: (config, args) => benchLayout(config.bench, args),
  // pnpm bench part-status [PARTS]: the part steps' status bookkeeping on a PARTS-page document.
  'part-status': (config, args) => benchPartStatus(config.bench, args),
  // pnpm bench relevance [DATASET…]: what each part of keyword scoring adds, in memory.
  relevance: (config, args) => benchRelevance(config.bench, args),
}

// pnpm bench <name>: prints figures; never asserts (goals are read, not enforced).
runMain(async () => {
  const name = process.argv[2] ?? ''
  const bench = BENCHES[name]
  if (!bench) {
    const help = name === '--help' || name === '-h'
    ;(help ? process.stdout : process.stderr).write(
      `usage: pnpm bench <${Object.keys(BENCHES).join('|')}> [options]\n`,
    )
    process.exit(help ? 0 : 2)
  }
  await bench(benchConfig.parse(processEnvironment()), process.argv.slice(3))
  process.exit(0)
})

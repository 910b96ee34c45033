import { type BenchProcessConfig, benchConfig, processEnvironment } from '@rag/config'
import { runMain } from '@rag/runtime'
import { benchAsk } from './bench-ask.ts'
import { type Bench, runBenchCommand } from './bench-cli.ts'
import { benchFiles } from './bench-files.ts'
import { benchIngest } from './bench-ingest.ts'
import { benchLayout } from './bench-layout.ts'
import { benchModels } from './bench-models.ts'
import { benchPartStatus } from './bench-part-status.ts'
import { benchRelevance } from './bench-relevance.ts'
import { benchScan } from './bench-scan.ts'
import { benchSearch } from './bench-search.ts'
import { benchSources } from './bench-sources.ts'
import { benchTransfers } from './bench-transfers.ts'

const BENCHES: Record<string, Bench<BenchProcessConfig>> = {
  ingest: {
    usage:
      '[--embedder PRESET] [--embedded]: the pipeline’s throughput, and each worker’s peak memory on a large PDF',
    run: benchIngest,
  },
  search: {
    usage:
      '[10000,100000,1000000] [--embedded] [--corpus DIR] [--collections N] [--synonyms sudachi|off]: keyword search on real text',
    run: (config, args) => benchSearch(config.bench, args),
  },
  ask: {
    usage: '[10000,100000,1000000]: search per mode on real text, and POST /ask → done',
    run: (config, args) => benchAsk(config.bench, args),
  },
  files: {
    usage: 'DIR…: real files of every kind through the pipeline (counts, memory, stalls)',
    run: (config, args) => benchFiles(config.bench, args, config.parsing.sandbox.memoryMb),
  },
  scan: {
    usage: '[PAGES] [--csv ROWS]: a scanned book (or a big CSV) with documents uploaded behind it',
    run: benchScan,
  },
  transfers: {
    usage: "[N]: the gateway's memory under N parallel 49 MB uploads and downloads",
    run: (config, args) => benchTransfers(config.bench, args),
  },
  models: {
    usage: '[embedder|reranker|llm|ask]: real-size model costs with shape-true models',
    run: benchModels,
  },
  layout: {
    usage:
      'tables DIR | pages PATH… | vertical [PAGES]: tables (ICDAR 2013), parse time and running lines against pdf-parse, vertical Japanese',
    run: (config, args) => benchLayout(config.bench, args),
  },
  'part-status': {
    usage: "[PARTS]: the part steps' status bookkeeping on a PARTS-page document",
    run: (config, args) => benchPartStatus(config.bench, args),
  },
  sources: {
    usage:
      '[web|webdav|git|s3] [--files N] [--until-ready]: a first sync against uploading the same files (and until its documents are ready), a re-sync unchanged, 1% changed and deleted',
    run: (config, args) => benchSources(config.bench, args),
  },
  relevance: {
    usage: '[DATASET…]: what each part of keyword scoring adds, in memory',
    run: (config, args) => benchRelevance(config.bench, args),
  },
}

// pnpm bench <name>: prints figures; never asserts (goals are read, not enforced).
runMain(async () => {
  process.exit(
    await runBenchCommand(process.argv.slice(2), BENCHES, {
      config: () => benchConfig.parse(processEnvironment()),
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    }),
  )
})

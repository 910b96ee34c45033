import type { BenchProcessConfig } from '@rag/config'
import { benchLayoutPages } from './bench-layout-pages.ts'
import { benchLayoutTables } from './bench-layout-tables.ts'
import { benchLayoutVertical } from './bench-layout-vertical.ts'

const USAGE = 'usage: pnpm bench layout tables DIR | pages PATH… | vertical [PAGES]'

/** `pnpm bench layout <tables|pages|vertical> …`: how well documents are read as they are laid out. */
export async function benchLayout(config: BenchProcessConfig['bench'], args: string[]): Promise<void> {
  const [what, ...rest] = args
  if (what === 'tables' && rest[0]) return benchLayoutTables(rest[0])
  if (what === 'pages' && rest.length > 0) return benchLayoutPages(rest)
  if (what === 'vertical')
    return benchLayoutVertical(config.sharedDir, config.chromiumPath, Number(rest[0] ?? 8))
  throw new Error(USAGE)
}

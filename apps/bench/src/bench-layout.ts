import { benchLayoutTables } from './bench-layout-tables.ts'

const USAGE = 'usage: pnpm bench layout tables DIR'

/** `pnpm bench layout <tables> …`: how well documents are read as they are laid out. */
export async function benchLayout(args: string[]): Promise<void> {
  const [what, ...rest] = args
  if (what === 'tables' && rest[0]) return benchLayoutTables(rest[0])
  throw new Error(USAGE)
}

import { type SynonymAlternate, SynonymTable } from '@rag/keyword'
import type { Logger } from '@rag/log'
import { createLogger } from '@rag/log'
import { type ModelThread, startModelThread } from '@rag/runtime'

const THREAD = new URL(`./synonym-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

/** How long one collection's rules may take to compile; past it the search goes on without them. */
export const SYNONYM_COMPILE_BUDGET_MS = 10_000

/** Turns a collection's stored rules into its table. */
export interface SynonymCompiler {
  compile(rules: string): Promise<SynonymTable>
  close(): Promise<void>
}

/**
 * Compiles rules in a thread of their own, started on first use, within a time budget: a set that
 * takes longer ends its thread (a new one serves the next compile) and fails, so the search runs
 * on the dictionary alone rather than waiting. Stored rules were checked and bounded when saved
 * (SYNONYM_FILE_LIMITS): the budget is for a machine under load, not for hostile rules.
 */
export function synonymCompiler({
  logger = createLogger({ name: 'synonyms', level: 'silent' }),
  budgetMs = SYNONYM_COMPILE_BUDGET_MS,
}: {
  logger?: Logger
  budgetMs?: number
} = {}): SynonymCompiler {
  let thread: Promise<ModelThread<string, [string, SynonymAlternate[]][]>> | undefined
  const started = () => {
    thread ??= startModelThread<string, [string, SynonymAlternate[]][]>(THREAD, null, logger)
    return thread
  }
  return {
    async compile(rules) {
      const current = started()
      let timer: NodeJS.Timeout | undefined
      const overBudget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`compiling the rules took over ${budgetMs} ms`)), budgetMs)
      })
      try {
        const entries = await Promise.race([current.then((started) => started.call(rules)), overBudget])
        return SynonymTable.fromEntries(entries)
      } catch (error) {
        // The thread may still be at it: ended, and the next compile starts another.
        if (thread === current) thread = undefined
        void current.then((stale) => stale.close()).catch(() => undefined)
        throw error
      } finally {
        clearTimeout(timer)
      }
    },
    async close() {
      const current = thread
      thread = undefined
      if (current) await (await current).close()
    },
  }
}

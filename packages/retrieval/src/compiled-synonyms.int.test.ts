import { afterAll, describe, expect, it } from 'vitest'
import { synonymCompiler } from './compiled-synonyms.ts'

// A collection's rules are compiled in a thread of their own: while a large set compiles, the
// process's event loop (searches, /healthz, job locks) goes on; one past its budget is given up.
const largeValidRules = Array.from({ length: 60_000 }, (_, i) => `term${i}, alias${i}`).join('\n')

describe('compiling a collection’s synonym rules', () => {
  const compiler = synonymCompiler({ budgetMs: 60_000 })
  afterAll(() => compiler.close())

  it('builds the table off the event loop: other callbacks run while it compiles', async () => {
    const order: string[] = []
    const compiled = compiler.compile(largeValidRules).then((table) => {
      order.push('compiled')
      return table
    })
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        order.push('event loop')
        resolve()
      }),
    )
    const table = await compiled
    expect(order).toEqual(['event loop', 'compiled'])
    expect(table.alternatesOf('alias59999').map((alternate) => alternate.text)).toEqual(['term59999'])
  })

  it('gives up a compile past its budget, and the next compile gets a thread of its own', async () => {
    const hurried = synonymCompiler({ budgetMs: 1 })
    try {
      await expect(hurried.compile(largeValidRules)).rejects.toThrow(/took over 1 ms/)
    } finally {
      await hurried.close()
    }
    const table = await compiler.compile('有休, 年次有給休暇')
    expect(table.alternatesOf('有休').map((alternate) => alternate.text)).toEqual(['年次有給休暇'])
  })
})

import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'
import { readTestConfig } from '../testing.ts'
import { recordSql } from './sql-recorder.ts'

// vitest runs this before every integration file (vitest.config.ts, setupFiles). With TEST_SQL_LOG
// set (`pnpm test` sets it for the native pass), the file's SQL to the test database is written
// there when the file ends, as `{ file, statements, seconds, cpuSeconds }`: for choosing the PGlite
// pass's files (the fewest, quickest), and for the end of `pnpm test` to say what costs the machine most.
const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url))
const config = readTestConfig()

/**
 * CPU seconds this process and its ended children have used (Linux /proc: user and system time of
 * both; a test's worker processes and parse children count when they end). Null elsewhere.
 */
function cpuSeconds(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
    // After the name: state is field 3, utime … cstime fields 14–17, in clock ticks (100 a second).
    const ticks = [11, 12, 13, 14].map((index) => Number(fields[index]))
    return ticks.every(Number.isFinite) ? ticks.reduce((sum, tick) => sum + tick, 0) / 100 : null
  } catch {
    return null
  }
}
const folder = config.sqlLog

if (folder && config.dbBackend === 'native') {
  const recorder = recordSql(config.databaseUrl)
  recorder.take() // what a previous file of this worker left running is not this file's
  const started = performance.now()
  const cpuAtStart = cpuSeconds()
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook needs from its first parameter
  afterAll(async ({}, suite) => {
    const file = relative(repositoryRoot, 'filepath' in suite ? suite.filepath : suite.file.filepath)
    await mkdir(folder, { recursive: true })
    await writeFile(
      join(folder, `${file.replace(/[/\\]/g, '__')}.json`),
      JSON.stringify({
        file,
        statements: recorder.take(),
        seconds: (performance.now() - started) / 1000,
        cpuSeconds: cpuAtStart === null ? null : (cpuSeconds() ?? cpuAtStart) - cpuAtStart,
      }),
    )
  })
}

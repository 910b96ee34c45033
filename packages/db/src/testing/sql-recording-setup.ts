import { mkdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'
import { readTestConfig } from '../testing.ts'
import { recordSql } from './sql-recorder.ts'

// vitest runs this before every integration file (vitest.config.ts, setupFiles). With TEST_SQL_LOG
// set (`pnpm test` sets it for the native pass), the file's SQL to the test database is written
// there when the file ends, as `{ file, statements, seconds }`, for choosing the PGlite pass's
// files (the fewest, quickest) while the rest of the native pass still runs.
const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url))
const config = readTestConfig()
const folder = config.sqlLog

if (folder && config.dbBackend === 'native') {
  const recorder = recordSql(config.databaseUrl)
  recorder.take() // what a previous file of this worker left running is not this file's
  const started = performance.now()
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads which fixtures a hook needs from its first parameter
  afterAll(async ({}, suite) => {
    const file = relative(repositoryRoot, 'filepath' in suite ? suite.filepath : suite.file.filepath)
    await mkdir(folder, { recursive: true })
    await writeFile(
      join(folder, `${file.replace(/[/\\]/g, '__')}.json`),
      JSON.stringify({ file, statements: recorder.take(), seconds: (performance.now() - started) / 1000 }),
    )
  })
}

import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type CoveringFile, chooseCoveringFiles, uncoveredStatements } from './choose-files.ts'
import { type FileCost, formatSlowest } from './slowest-files.ts'
import { fingerprint, loadParser } from './sql-fingerprint.ts'
import { readVitestReport } from './vitest-report.ts'

// `pnpm test`'s helper (scripts/test-all.sh), one command per step (REPORT…: vitest JSON reports):
//   choose-pglite SQL_DIR OUT [CHOSEN…]  the files the PGlite pass runs, one per line: the fewest,
//                                       quickest covering every statement the native pass's files
//                                       sent that the files already CHOSEN (lists of them) did not
//   check-pglite SQL_DIR REPORT…        fails unless the files that passed on PGlite sent every statement native saw
//   report PHASES SQL_DIR REPORT…       the 15 slowest files, the 15 costliest in CPU, each phase's wall time
const root = fileURLToPath(new URL('../../../', import.meta.url))
const [command, ...args] = process.argv.slice(2)

/** What each file sent to the test database in the native pass (sql-recording-setup.ts), and what it took. */
async function readSqlLogs(folder: string): Promise<{ files: CoveringFile[]; texts: Map<string, string> }> {
  await loadParser()
  const texts = new Map<string, string>()
  const files = await Promise.all(
    (await readdir(folder).catch(() => []))
      .filter((name) => name.endsWith('.json'))
      .map(async (name) => {
        const log = JSON.parse(await readFile(join(folder, name), 'utf8')) as {
          file: string
          statements: string[]
          seconds?: number
        }
        const statements = new Set<string>()
        for (const sql of log.statements) {
          const statement = fingerprint(sql)
          statements.add(statement.fingerprint)
          texts.set(statement.fingerprint, statement.text)
        }
        return { file: log.file, statements, seconds: log.seconds ?? 1 }
      }),
  )
  return { files, texts }
}

/** The files of several reports (the lanes of one pass), those a report lacks left out. */
const readReports = async (reports: string[]) =>
  (await Promise.all(reports.map((report) => readVitestReport(report, root).catch(() => [])))).flat()

async function choosePglite(sqlDir: string, out: string, chosenLists: string[]) {
  const { files } = await readSqlLogs(sqlDir)
  const earlier = new Set(
    (await Promise.all(chosenLists.map((list) => readFile(list, 'utf8').catch(() => ''))))
      .flatMap((text) => text.split('\n'))
      .filter(Boolean),
  )
  const covered = new Set(
    files.filter((file) => earlier.has(file.file)).flatMap((file) => [...file.statements]),
  )
  const rest = files
    .filter((file) => !earlier.has(file.file))
    .map((file) => ({ ...file, statements: new Set([...file.statements].filter((s) => !covered.has(s))) }))
    .filter((file) => file.statements.size > 0)
  const chosen = chooseCoveringFiles(rest)
  const statements = new Set(rest.flatMap((file) => [...file.statements]))
  const seconds = chosen.reduce((sum, file) => sum + file.seconds, 0)
  await writeFile(out, chosen.map((file) => `${file.file}\n`).join(''))
  console.log(
    `PGlite pass: ${chosen.length} of ${files.length} files send the ${statements.size} distinct statements ` +
      `${earlier.size > 0 ? `the ${earlier.size} files already chosen did not` : 'the native pass sent'} ` +
      `(${Math.round(seconds)} s natively)`,
  )
}

async function checkPglite(sqlDir: string, reports: string[]) {
  const results = await readReports(reports)
  const { files, texts } = await readSqlLogs(sqlDir)
  const ran = new Set(results.filter((result) => result.passed).map((result) => result.file))
  const missing = uncoveredStatements(files, ran)
  const all = new Set(files.flatMap((file) => [...file.statements])).size
  if (missing.size === 0) {
    console.log(
      `PGlite coverage: the ${ran.size} files that passed on PGlite sent all ${all} statements of the native pass`,
    )
    return
  }
  console.error(
    `PGlite coverage: ${missing.size} of ${all} statements of the native pass were not run on PGlite:`,
  )
  for (const [statement, senders] of [...missing].slice(0, 20))
    console.error(
      `  ${(texts.get(statement) ?? statement).slice(0, 160)}\n    sent by ${senders.slice(0, 3).join(', ')}`,
    )
  process.exitCode = 1
}

async function report(phases: string, sqlDir: string, reports: string[]) {
  const results = await readReports(reports)
  const lines = (await readFile(phases, 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t') as [string, string])
  const costs = await Promise.all(
    (await readdir(sqlDir).catch(() => []))
      .filter((name) => name.endsWith('.json'))
      .map(async (name) => JSON.parse(await readFile(join(sqlDir, name), 'utf8')) as FileCost),
  )
  console.log(
    formatSlowest(
      results,
      lines.map(([name, seconds]) => ({ name, seconds: Number(seconds) })),
      costs,
    ),
  )
}

const commands: Record<string, (...args: string[]) => Promise<void>> = {
  'choose-pglite': (sqlDir = '', out = '', ...chosen) => choosePglite(sqlDir, out, chosen),
  'check-pglite': (sqlDir = '', ...reports) => checkPglite(sqlDir, reports),
  report: (phases = '', sqlDir = '', ...reports) => report(phases, sqlDir, reports),
}
const run = command ? commands[command] : undefined
if (!run) {
  console.error(`usage: main.ts ${Object.keys(commands).join('|')} …`)
  process.exit(2)
}
await run(...args)

/** A test file: the statements it sent (fingerprints) and what running it costs (seconds). */
export interface CoveringFile {
  file: string
  statements: ReadonlySet<string>
  seconds: number
}

/**
 * The cheapest set of files whose statements together are every statement any file sent: greedy
 * weighted set cover (take the file with the most new statements per second until nothing is
 * left), then drop any file the others already cover, costliest first. Greedy is within a log
 * factor of the best cover and takes milliseconds; the exact cover is NP-hard.
 */
export function chooseCoveringFiles(files: CoveringFile[]): CoveringFile[] {
  const uncovered = new Set(files.flatMap((file) => [...file.statements]))
  const chosen: CoveringFile[] = []
  const left = new Set(files)
  while (uncovered.size > 0) {
    let best: CoveringFile | undefined
    let bestValue = 0
    for (const file of left) {
      let fresh = 0
      for (const statement of file.statements) if (uncovered.has(statement)) fresh += 1
      const value = fresh / Math.max(file.seconds, 0.1)
      if (value > bestValue) {
        best = file
        bestValue = value
      }
    }
    if (!best) break
    left.delete(best)
    chosen.push(best)
    for (const statement of best.statements) uncovered.delete(statement)
  }
  return withoutRedundant(chosen)
}

function withoutRedundant(chosen: CoveringFile[]): CoveringFile[] {
  const kept = [...chosen]
  for (const file of [...chosen].sort((a, b) => b.seconds - a.seconds)) {
    const others = kept.filter((other) => other !== file)
    const coveredByOthers = new Set(others.flatMap((other) => [...other.statements]))
    if ([...file.statements].every((statement) => coveredByOthers.has(statement)))
      kept.splice(kept.indexOf(file), 1)
  }
  return kept
}

/** The statements some file sent that none of `ran` did, each with the files that sent it. */
export function uncoveredStatements(all: CoveringFile[], ran: ReadonlySet<string>): Map<string, string[]> {
  const covered = new Set(all.filter((file) => ran.has(file.file)).flatMap((file) => [...file.statements]))
  const missing = new Map<string, string[]>()
  for (const file of all)
    for (const statement of file.statements)
      if (!covered.has(statement)) missing.set(statement, [...(missing.get(statement) ?? []), file.file])
  return missing
}

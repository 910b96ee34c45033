import { dirname, join, normalize, sep } from 'node:path'
import { importsOf, isTestCode, type SourceFile, type Violation } from './check-layers.ts'

/**
 * Circles of relative imports between production files, type-only imports included: a circle
 * means neither file can be read (or moved to another package) without the other, and a
 * type-only one becomes a runtime one with the first value someone imports along it. Tests are
 * left out (a test importing what it tests is no circle). Each circle is reported once, at the
 * file where the search met it again.
 */
export function checkImportCycles(files: SourceFile[]): Violation[] {
  const production = files.filter((file) => !isTestCode(file.path))
  const known = new Set(production.map((file) => file.path))
  const edges = new Map<string, { target: string; line: number }[]>()
  for (const { path, text } of production) {
    const targets: { target: string; line: number }[] = []
    for (const { specifier, line } of importsOf(text)) {
      if (!specifier.startsWith('.')) continue
      const target = normalize(join(dirname(path), specifier))
        .split(sep)
        .join('/')
      if (known.has(target)) targets.push({ target, line })
    }
    edges.set(path, targets)
  }
  const violations: Violation[] = []
  const done = new Set<string>()
  const stack: string[] = []
  const visit = (path: string) => {
    stack.push(path)
    for (const { target, line } of edges.get(path) ?? []) {
      if (done.has(target)) continue
      if (stack.includes(target)) {
        violations.push({
          path,
          line,
          rule: 'import-cycle',
          message: [...stack.slice(stack.indexOf(target)), target].join(' → '),
        })
        continue
      }
      visit(target)
    }
    stack.pop()
    done.add(path)
  }
  for (const path of known) if (!done.has(path)) visit(path)
  return violations
}

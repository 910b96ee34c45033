import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  checkLayers,
  checkPackages,
  checkTestSkips,
  formatViolation,
  type SourceFile,
  type WorkspacePackage,
} from './check-layers.ts'
import { checkImportCycles } from './import-cycles.ts'

// `pnpm lint` runs this after Biome: the layering rules over every source file of apps/ and
// packages/. The files are git's own list (tracked and new, ignored ones left out): walking the
// folders followed every package's node_modules symlinks (348,000 entries for one package).
const root = process.argv[2] ?? '.'

/** The files git knows (committed, staged or new and not ignored) matching the patterns. */
const gitFiles = (...patterns: string[]) =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...patterns], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
    .split('\n')
    .filter(Boolean)

const read = (path: string) => {
  try {
    return readFileSync(join(root, path), 'utf8')
  } catch {
    return null // deleted in the work tree, not yet in the index
  }
}

const files: SourceFile[] = gitFiles('apps', 'packages')
  .filter((path) => /\.tsx?$/.test(path))
  .flatMap((path) => {
    const text = read(path)
    return text === null ? [] : [{ path, text }]
  })
const appPackages = new Set(
  gitFiles('apps/*/package.json').map((path) => (JSON.parse(read(path) ?? '{}') as { name: string }).name),
)
const packages: WorkspacePackage[] = gitFiles('apps/*/package.json', 'packages/*/package.json').map(
  (path) => {
    const json = JSON.parse(read(path) ?? '{}') as {
      name: string
      dependencies?: Record<string, string>
      devDependencies?: Record<string, string>
    }
    const declared = Object.keys({ ...json.dependencies, ...json.devDependencies }).filter((name) =>
      name.startsWith('@rag/'),
    )
    return { folder: path.slice(0, path.lastIndexOf('/')), name: json.name, declares: new Set(declared) }
  },
)
const violations = [
  ...checkLayers(files, appPackages),
  ...checkPackages(files, packages),
  ...checkTestSkips(files),
  ...checkImportCycles(files),
]
for (const violation of violations) console.error(formatViolation(violation))
if (violations.length > 0) {
  console.error(`layers: ${violations.length} violation(s) in ${files.length} files`)
  process.exit(1)
}
console.log(`layers: ${files.length} files follow the layering rules`)

import { dirname, join, normalize, relative, sep } from 'node:path'

/** A source file of the monorepo: its path from the root and its text. */
export interface SourceFile {
  path: string
  text: string
}

export interface Violation {
  path: string
  line: number
  rule: string
  message: string
}

/** Where a file stands: its layer (apps or packages) and its folder there (apps/web → "web"). */
function placeOf(path: string): { layer: string; unit: string } | null {
  const [layer, unit] = path.split('/')
  return (layer === 'apps' || layer === 'packages') && unit ? { layer, unit } : null
}

/**
 * Test code: test files, and the helpers only tests (and the bench, which measures with them)
 * may import: `testing.ts`, `testing-*.ts`, `test-*.ts` and anything under a `testing/` folder.
 */
export function isTestCode(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1)
  return (
    /\.test\.tsx?$/.test(name) ||
    name === 'testing.ts' ||
    /^(testing|test)-[\w-]+\.ts$/.test(name) ||
    path.split('/').includes('testing')
  )
}

/** The bench is a developer's measuring tool: it drives the product through the test fixtures. */
const MAY_USE_TEST_HELPERS = (path: string) => path.startsWith('apps/bench/')

// Static imports and re-exports, dynamic imports, and side-effect imports (`import './setup.ts'`).
const IMPORT =
  /(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g

export function* importsOf(text: string): Generator<{ specifier: string; line: number }> {
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3]
    if (!specifier) continue
    // The match may start at the whitespace before the keyword: the line is the keyword's.
    const at = match.index + match[0].length - match[0].trimStart().length
    yield { specifier, line: text.slice(0, at).split('\n').length }
  }
}

/** A workspace package as its package.json declares it. */
export interface WorkspacePackage {
  /** Its folder from the root: packages/keyword, apps/web. */
  folder: string
  name: string
  /** The workspace packages it declares (dependencies and devDependencies). */
  declares: Set<string>
}

/**
 * Packages that compute and touch no service: they may not import one (a parser or the analyser
 * that pulled in the database or the queues could no longer run in a sandbox or a test without them).
 */
const SERVICE_FREE = new Set(['parsers', 'keyword', 'answer-span', 'chunking', 'layout'])
const SERVICES = new Set([
  '@rag/db',
  '@rag/queue',
  '@rag/worker-host',
  '@rag/runtime',
  '@rag/http-api',
  '@rag/ingest',
  '@rag/questions',
  '@rag/retrieval',
])

/**
 * The rules over package.json and imports together: a file imports only the workspace packages
 * its package declares (an undeclared one resolves only by accident of hoisting, and hides a
 * cycle), the declared graph has no cycle, and a service-free package imports no service.
 */
export function checkPackages(files: SourceFile[], packages: WorkspacePackage[]): Violation[] {
  const violations: Violation[] = []
  const byFolder = new Map(packages.map((pkg) => [pkg.folder, pkg]))
  for (const { path, text } of files) {
    const pkg = byFolder.get(path.split('/').slice(0, 2).join('/'))
    if (!pkg) continue
    for (const { specifier, line } of importsOf(text)) {
      if (!specifier.startsWith('@rag/')) continue
      const name = specifier.split('/').slice(0, 2).join('/')
      if (name !== pkg.name && !pkg.declares.has(name))
        violations.push({
          path,
          line,
          rule: 'undeclared-dependency',
          message: `imports ${name}, which ${pkg.folder}/package.json does not declare`,
        })
      if (SERVICE_FREE.has(pkg.folder.split('/')[1] ?? '') && SERVICES.has(name))
        violations.push({
          path,
          line,
          rule: 'service-free-imports-service',
          message: `${pkg.name} computes without services and may not import ${name}`,
        })
    }
  }
  // A cycle in the declared graph, by depth-first search (a package on the stack met again).
  const byName = new Map(packages.map((pkg) => [pkg.name, pkg]))
  const done = new Set<string>()
  const stack: string[] = []
  const visit = (pkg: WorkspacePackage) => {
    stack.push(pkg.name)
    for (const next of pkg.declares) {
      const target = byName.get(next)
      if (!target || done.has(next)) continue
      if (stack.includes(next)) {
        violations.push({
          path: `${pkg.folder}/package.json`,
          line: 1,
          rule: 'dependency-cycle',
          message: [...stack.slice(stack.indexOf(next)), next].join(' → '),
        })
        continue
      }
      visit(target)
    }
    stack.pop()
    done.add(pkg.name)
  }
  for (const pkg of packages) if (!done.has(pkg.name)) visit(pkg)
  return violations
}

/**
 * Checks the layering rules over the files given, with `appPackages` the package names of the
 * apps (e.g. "@rag/web"):
 * - apps never import apps (an app wires packages; what two apps share is a package);
 * - packages never import an app, nor reach into `apps/` by a relative path;
 * - production code never imports a test helper (`@rag/x/testing`, a testing file or folder).
 */
export function checkLayers(files: SourceFile[], appPackages: Set<string>): Violation[] {
  const violations: Violation[] = []
  for (const { path, text } of files) {
    const place = placeOf(path)
    if (!place) continue
    const testCode = isTestCode(path)
    for (const { specifier, line } of importsOf(text)) {
      const report = (rule: string, message: string) => violations.push({ path, line, rule, message })
      const target = specifier.startsWith('.')
        ? normalize(join(dirname(path), specifier))
            .split(sep)
            .join('/')
        : null
      const targetPlace = target ? placeOf(target) : null
      const packageName = specifier.startsWith('@rag/') ? specifier.split('/').slice(0, 2).join('/') : null
      const importsApp =
        (packageName !== null && appPackages.has(packageName)) ||
        (targetPlace?.layer === 'apps' && targetPlace.unit !== place.unit)
      if (importsApp && place.layer === 'apps')
        report('app-imports-app', `an app imports another app (${specifier}); share it through a package`)
      if (importsApp && place.layer === 'packages')
        report('package-imports-app', `a package imports an app (${specifier})`)
      if (target?.startsWith('..'))
        report('outside-the-repository', `a relative import leaves the repository (${specifier})`)
      const helper =
        /^@rag\/[\w-]+\/testing(\/|$)/.test(specifier) ||
        (target !== null && isTestCode(/\.tsx?$/.test(target) ? target : `${target}.ts`))
      if (helper && !testCode && !MAY_USE_TEST_HELPERS(path))
        report('production-imports-test-helper', `production code imports a test helper (${specifier})`)
    }
    if (place.layer === 'packages' && /['"`][^'"`]*\.\.\/apps\//.test(text)) {
      const line = text.split('\n').findIndex((l) => /['"`][^'"`]*\.\.\/apps\//.test(l)) + 1
      violations.push({
        path,
        line,
        rule: 'package-reaches-into-apps',
        message: 'a package names a path inside apps/ (the process catalog is where entries are named)',
      })
    }
  }
  return violations
}

export const formatViolation = (v: Violation, root = '.') =>
  `${relative(root, join(root, v.path))}:${v.line}  ${v.rule}: ${v.message}`

/** What a test may skip for: the test-asset policy (skipped on a developer's machine, failing under CI). */
const ASSET_POLICY = /\b(requireTestAsset|findTestAsset|findSharedTokenizer)\(/
const SKIP_IF = /\.(skipIf|runIf)\(([^)]*)\)/g
const UNCONDITIONAL_SKIP = /\b(it|test|describe)\.(skip|todo)\(/

/**
 * Skips a CI run would not notice: a test file that skips on a condition must take it from the
 * test-asset policy (requireTestAsset and the helpers built on it: under CI=true a missing asset
 * fails the run) or from the database backend (a PGlite run skips what only native Postgres can
 * do); a test skipped without a condition is never committed.
 */
export function checkTestSkips(files: SourceFile[]): Violation[] {
  const violations: Violation[] = []
  // A helper of the policy (test-chromium.ts finding Chromium by findTestAsset) counts for its importers.
  const policyHelpers = new Set(files.filter((file) => ASSET_POLICY.test(file.text)).map((file) => file.path))
  const usesPolicy = (path: string, text: string) =>
    ASSET_POLICY.test(text) ||
    [...importsOf(text)].some(
      ({ specifier }) =>
        specifier.startsWith('.') &&
        policyHelpers.has(
          normalize(join(dirname(path), specifier))
            .split(sep)
            .join('/'),
        ),
    )
  for (const { path, text } of files) {
    if (!/\.test\.tsx?$/.test(path)) continue
    const lineOf = (index: number) => text.slice(0, index).split('\n').length
    const unconditional = UNCONDITIONAL_SKIP.exec(text)
    if (unconditional)
      violations.push({
        path,
        line: lineOf(unconditional.index),
        rule: 'test-skipped',
        message: `${unconditional[0]} skips a test for good; fix it or delete it`,
      })
    if (usesPolicy(path, text)) continue
    for (const match of text.matchAll(SKIP_IF)) {
      if (/dbBackend/.test(match[2] ?? '')) continue
      violations.push({
        path,
        line: lineOf(match.index ?? 0),
        rule: 'skip-outside-asset-policy',
        message: `${match[0]} skips on a condition CI would not notice; take it from requireTestAsset`,
      })
    }
  }
  return violations
}

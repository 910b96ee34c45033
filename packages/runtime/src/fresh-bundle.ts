import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'

/**
 * What a bundle (tooling/bundle) was built from, written beside it as `BUNDLE.inputs.json`: our
 * source files with a hash of each, and the files outside it it imports by their path (where
 * pnpm put each package).
 */
export interface BundleManifest {
  sources: { path: string; sha1: string }[]
  externals: string[]
}

export const sha1Of = (data: string | Uint8Array) => createHash('sha1').update(data).digest('hex')

const modified = (path: string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs

/** A source as it was built: untouched since, or touched (a checkout, a build cache) and the same. */
function unchanged({ path, sha1 }: BundleManifest['sources'][number], built: number): boolean {
  const changed = modified(path)
  if (changed === undefined) return false
  if (changed <= built) return true
  try {
    return sha1Of(readFileSync(path)) === sha1
  } catch {
    return false
  }
}

/**
 * Whether `bundle` may run in place of its sources: every source it holds is as it was when it was
 * built, and every file it imports is still where it was. An edit or a `pnpm install` after the
 * build makes it stale, and the process then runs from source (under tsx) — never yesterday's
 * code. A few hundred stats, and a hash of the files touched since: milliseconds per start.
 */
export function freshBundle(bundle: string): boolean {
  const built = modified(bundle)
  if (built === undefined) return false
  let manifest: BundleManifest
  try {
    manifest = JSON.parse(readFileSync(`${bundle}.inputs.json`, 'utf8')) as BundleManifest
  } catch {
    return false
  }
  if (!Array.isArray(manifest.sources) || !Array.isArray(manifest.externals)) return false
  return (
    manifest.sources.every((source) => unchanged(source, built)) &&
    manifest.externals.every((external) => modified(external) !== undefined)
  )
}

import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type BundleManifest, freshBundle, sha1Of } from './fresh-bundle.ts'

let dir: string
let bundle: string
let source: string
let external: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-fresh-bundle-'))
  source = join(dir, 'main.ts')
  external = join(dir, 'dependency.js')
  bundle = join(dir, 'main.mjs')
  await writeFile(source, 'export const a = 1\n')
  await writeFile(external, 'export default 1\n')
  // Sources written a minute before their bundle, as a build leaves them.
  const before = new Date(Date.now() - 60_000)
  await utimes(source, before, before)
  const manifest: BundleManifest = {
    sources: [{ path: source, sha1: sha1Of('export const a = 1\n') }],
    externals: [external],
  }
  await writeFile(`${bundle}.inputs.json`, JSON.stringify(manifest))
  await writeFile(bundle, '// bundle\n')
})
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('freshBundle', () => {
  it('runs a bundle built after its sources', () => {
    expect(freshBundle(bundle)).toBe(true)
  })

  it('runs it still when a source was only touched (a checkout, a build cache restoring it)', async () => {
    const later = new Date(Date.now() + 60_000)
    await utimes(source, later, later)
    expect(freshBundle(bundle)).toBe(true)
  })

  it('runs the sources once one of them was changed after the build', async () => {
    await writeFile(source, 'export const a = 2\n')
    const later = new Date(Date.now() + 60_000)
    await utimes(source, later, later)
    expect(freshBundle(bundle)).toBe(false)
  })

  it('runs the sources when a file it imports is gone (pnpm install moved a package) or it has no manifest', async () => {
    await rm(external)
    expect(freshBundle(bundle)).toBe(false)
    expect(freshBundle(join(dir, 'missing.mjs'))).toBe(false)
    await rm(`${bundle}.inputs.json`)
    expect(freshBundle(bundle)).toBe(false)
  })
})

import { readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type BundleManifest, sha1Of } from '@rag/runtime'
import { build, type Plugin } from 'esbuild'

/**
 * Our own TypeScript in the bundle, everything else left where pnpm put it: a package is imported
 * from the path it resolves to from the file that imports it (pnpm gives each package its own
 * dependencies, which the bundle's folder could not resolve), and each source file keeps its own
 * `import.meta.url` (and what its `import.meta.resolve` finds), so the files it finds beside itself (migrations, models, a worker thread's
 * entry, the web app) are found where they are.
 */
const META_RESOLVE = /\bimport\.meta\.resolve\(\s*'([^']+)'\s*\)/g

/** The files outside the bundle it imports by path (what pnpm put where), noted as they are resolved. */
const workspaceOnly = (externals: Set<string>): Plugin => ({
  name: 'workspace-only',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@rag/') || args.path.startsWith('node:') || args.pluginData === 'resolving')
        return undefined
      const resolved = await builder.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: 'resolving',
      })
      if (resolved.errors.length === 0) externals.add(resolved.path)
      return { path: resolved.errors.length > 0 ? args.path : resolved.path, external: true }
    })
    builder.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8')
      // `import.meta.resolve('pkg')` asks from the file it is written in: resolved here, at build
      // time, from that file (the bundle's folder would resolve nothing pnpm put beside the source).
      const specifiers = [...source.matchAll(META_RESOLVE)].map((match) => match[1] ?? '')
      const resolved = new Map<string, string>()
      for (const specifier of new Set(specifiers)) {
        const found = await builder.resolve(specifier, {
          resolveDir: dirname(args.path),
          kind: 'import-statement',
          pluginData: 'resolving',
        })
        if (found.errors.length > 0) throw new Error(`${args.path}: cannot resolve '${specifier}'`)
        externals.add(found.path)
        resolved.set(specifier, pathToFileURL(found.path).href)
      }
      return {
        contents: source
          .replace(META_RESOLVE, (_, specifier: string) => JSON.stringify(resolved.get(specifier)))
          .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('x') ? 'tsx' : 'ts',
      }
    })
  },
})

/**
 * Bundles a process's entry into an ES module (and, for what it imports only when asked —
 * `import('./x.ts')`, as the worker app does for each worker's own wiring — a chunk of its own
 * under `chunks/`, with that code's own package imports, so a process never loads what another
 * needs), with a manifest of what it was made of beside it
 * (`OUT.inputs.json`, read by @rag/runtime's freshBundle): the process then starts without tsx's loader
 * (which resolved and compiled each of its ~600 modules at every start: about 5 s of CPU for a
 * worker, against 1.5 s from its bundle).
 */
export async function bundleEntry(entry: string, outfile: string): Promise<void> {
  const externals = new Set<string>()
  const result = await build({
    metafile: true,
    entryPoints: { [basename(outfile, '.mjs')]: entry },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    // A CommonJS package bundled in (none is; they stay external) would call require: give it one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    plugins: [workspaceOnly(externals)],
  })
  // What the bundle was made of, so a process starts from it only while it is current (freshBundle).
  const manifest: BundleManifest = {
    sources: await Promise.all(
      Object.keys(result.metafile.inputs)
        .map((input) => resolve(input))
        .sort()
        .map(async (path) => ({ path, sha1: sha1Of(await readFile(path)) })),
    ),
    externals: [...externals].sort(),
  }
  await writeFile(`${outfile}.inputs.json`, JSON.stringify(manifest))
}

import { readFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

/**
 * Our own TypeScript in the bundle, everything else left where pnpm put it: a package is imported
 * from the path it resolves to from the file that imports it (pnpm gives each package its own
 * dependencies, which the bundle's folder could not resolve), and each source file keeps its own
 * `import.meta.url` (and what its `import.meta.resolve` finds), so the files it finds beside itself (migrations, models, a worker thread's
 * entry, the web app) are found where they are.
 */
const META_RESOLVE = /\bimport\.meta\.resolve\(\s*'([^']+)'\s*\)/g

const workspaceOnly: Plugin = {
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
}

/**
 * Bundles a process's entry into one ES module: the process then starts without tsx's loader
 * (which resolved and compiled each of its ~600 modules at every start: about 5 s of CPU for a
 * worker, against 1.5 s from its bundle).
 */
export async function bundleEntry(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [entry],
    outfile,
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
    plugins: [workspaceOnly],
  })
}

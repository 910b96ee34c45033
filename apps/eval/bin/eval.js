#!/usr/bin/env node
// `pnpm eval`: its build (dist/main.mjs, started without tsx: 1.5 s of CPU instead of 6) while that
// is current, else the TypeScript sources through tsx (a dependency of this package).
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

const unregister = register()
const { freshBundle } = await import('@rag/runtime/fresh-bundle')
const bundle = fileURLToPath(new URL('../dist/main.mjs', import.meta.url))
if (freshBundle(bundle)) {
  await unregister()
  await import(bundle)
} else {
  await import('../src/main.ts')
}

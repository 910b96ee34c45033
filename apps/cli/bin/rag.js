#!/usr/bin/env node
// The `rag` command: its build (dist/rag.mjs, started without tsx: a third of the CPU) while that
// is current, else the TypeScript sources through tsx (a dependency of this package).
import { fileURLToPath } from 'node:url'
import { register } from 'tsx/esm/api'

const unregister = register()
const { freshBundle } = await import('@rag/runtime/fresh-bundle')
const bundle = fileURLToPath(new URL('../dist/rag.mjs', import.meta.url))
if (freshBundle(bundle)) {
  await unregister()
  await import(bundle)
} else {
  await import('../src/rag-main.ts')
}

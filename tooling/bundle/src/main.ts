import { bundleEntry } from './bundle.ts'

// `build` of each app: `tsx ../../tooling/bundle/src/main.ts src/main.ts dist/main.mjs`.
const [entry, outfile] = process.argv.slice(2)
if (!entry || !outfile) {
  console.error('usage: main.ts ENTRY.ts OUT.mjs')
  process.exit(2)
}
await bundleEntry(entry, outfile)

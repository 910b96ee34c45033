import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkLayers, formatViolation, type SourceFile } from './check-layers.ts'

// `pnpm lint` runs this after Biome: the layering rules over every source file of apps/ and packages/.
const root = process.argv[2] ?? '.'
const files: SourceFile[] = []
const appPackages = new Set<string>()
for (const layer of ['apps', 'packages']) {
  for (const unit of readdirSync(join(root, layer))) {
    if (layer === 'apps') {
      const manifest = JSON.parse(readFileSync(join(root, layer, unit, 'package.json'), 'utf8')) as {
        name: string
      }
      appPackages.add(manifest.name)
    }
    for (const entry of readdirSync(join(root, layer, unit), { recursive: true, encoding: 'utf8' })) {
      if (
        !/\.tsx?$/.test(entry) ||
        entry.split('/').some((part) => part === 'node_modules' || part === 'dist')
      )
        continue
      const path = `${layer}/${unit}/${entry}`
      files.push({ path, text: readFileSync(join(root, path), 'utf8') })
    }
  }
}
const violations = checkLayers(files, appPackages)
for (const violation of violations) console.error(formatViolation(violation))
if (violations.length > 0) {
  console.error(`layers: ${violations.length} violation(s) in ${files.length} files`)
  process.exit(1)
}
console.log(`layers: ${files.length} files follow the layering rules`)

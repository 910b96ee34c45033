#!/usr/bin/env node
// The `rag` command: TypeScript sources run through tsx (a dependency of this package).
import { register } from 'tsx/esm/api'

register()
await import('../src/rag-main.ts')

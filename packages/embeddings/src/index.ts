export type { Embedder, ModelState } from './embedder.ts'

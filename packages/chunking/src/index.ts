export {
  CHUNKER_VERSION,
  type Chunk,
  type ChunkOptions,
  chunkSections,
  type ParentSection,
  type SectionInput,
} from './chunk-sections.ts'
export { type SplitOptions, splitText } from './split-text.ts'

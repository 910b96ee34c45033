export {
  CHUNKER_VERSION,
  type Chunk,
  type ChunkOptions,
  chunkSections,
  indexedText,
  type ParentSection,
  type SectionInput,
  type TextRegion,
} from './chunk-sections.ts'
export { type SplitOptions, splitText } from './split-text.ts'

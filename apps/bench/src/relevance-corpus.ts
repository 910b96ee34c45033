import { chunkSections } from '@rag/chunking'
import { ingestionDefaults } from '@rag/config'
import type { Dataset } from '@rag/evaluation'
import { analyzeText, Bm25Index, tokenize } from '@rag/keyword'
import { parseDocument, type SourceType } from '@rag/parsers'

/** A dataset's documents cut as the pipeline cuts them, with every chunk's and parent's terms. */
export interface RelevanceCorpus {
  /** Document id of each chunk. */
  chunkDocument: string[]
  chunkParent: number[]
  chunkText: string[]
  chunkWords: string[][]
  chunkBigrams: string[][]
  chunkIcu: string[][]
  parentWords: string[][]
  questions: { query: string; gold: Record<string, number> }[]
}

const typeOf = (filename: string): SourceType => (filename.endsWith('.md') ? 'markdown' : 'text')

export async function relevanceCorpus(dataset: Dataset, limit?: number): Promise<RelevanceCorpus> {
  const { chunking } = ingestionDefaults()
  const corpus: RelevanceCorpus = {
    chunkDocument: [],
    chunkParent: [],
    chunkText: [],
    chunkWords: [],
    chunkBigrams: [],
    chunkIcu: [],
    parentWords: [],
    questions: [],
  }
  for (const document of dataset.documents) {
    const sections = []
    for await (const section of parseDocument(document.data, document.filename, typeOf(document.filename)))
      sections.push(section)
    const { parents, chunks } = chunkSections(sections, chunking)
    const first = corpus.parentWords.length
    for (const parent of parents) corpus.parentWords.push(analyzeText(parent.text).words)
    for (const chunk of chunks) {
      const terms = analyzeText(chunk.text)
      corpus.chunkDocument.push(document.docId)
      corpus.chunkParent.push(first + chunk.parentOrdinal)
      corpus.chunkText.push(chunk.text)
      corpus.chunkWords.push(terms.words)
      corpus.chunkBigrams.push(terms.bigrams)
      corpus.chunkIcu.push(tokenize(chunk.text, 'icu'))
    }
  }
  corpus.questions = dataset.questions
    .filter((question) => question.gold)
    .slice(0, limit)
    .map((question) => ({ query: question.query, gold: question.gold ?? {} }))
  return corpus
}

/** Per-chunk term indexes of a corpus, for first-stage BM25 and document frequencies. */
export function indexTerms(lists: string[][], params?: { k1: number; b: number }): Bm25Index {
  const index = new Bm25Index(params)
  for (const terms of lists) index.add(terms)
  return index
}

/** How an embedding model wants its input and output handled; from its family, or set explicitly. */
export interface EmbeddingRecipe {
  pooling: 'mean' | 'cls'
  /** Written before a search query / a document passage (the model was trained with them). */
  queryPrefix: string
  passagePrefix: string
}

// Families whose model cards require something other than plain mean pooling without prefixes.
const FAMILIES: { match: RegExp; recipe: EmbeddingRecipe }[] = [
  // multilingual-e5-small/base/large (and their ONNX exports): "query: " / "passage: ", mean.
  {
    match: /(^|[/-])(multilingual-)?e5/i,
    recipe: { pooling: 'mean', queryPrefix: 'query: ', passagePrefix: 'passage: ' },
  },
  // cl-nagoya/ruri-v3-30m/130m/310m and exports of them: Japanese prefixes, mean.
  {
    match: /ruri-v3/i,
    recipe: { pooling: 'mean', queryPrefix: '検索クエリ: ', passagePrefix: '検索文書: ' },
  },
  // BAAI/bge-m3 dense vectors are the [CLS] token's.
  { match: /bge-m3/i, recipe: { pooling: 'cls', queryPrefix: '', passagePrefix: '' } },
]

const PLAIN: EmbeddingRecipe = { pooling: 'mean', queryPrefix: '', passagePrefix: '' }

/** The recipe of a model id: its family's, with any explicitly set part taking precedence. */
export function embeddingRecipe(model: string, explicit: Partial<EmbeddingRecipe> = {}): EmbeddingRecipe {
  const family = FAMILIES.find(({ match }) => match.test(model))?.recipe ?? PLAIN
  return {
    pooling: explicit.pooling ?? family.pooling,
    queryPrefix: explicit.queryPrefix ?? family.queryPrefix,
    passagePrefix: explicit.passagePrefix ?? family.passagePrefix,
  }
}

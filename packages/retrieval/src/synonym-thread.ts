// Where a collection's synonym rules are turned into a table (see compiledSynonyms): a thread of
// its own, so a large set of rules never holds the event loop that answers searches and /healthz.
import { parseSolrSynonyms, type SynonymAlternate, SynonymTable } from '@rag/keyword'
import { serveModelThread } from '@rag/runtime/serve-model-thread'

await serveModelThread<null, string, [string, SynonymAlternate[]][]>(
  async () => async (rules) => new SynonymTable(parseSolrSynonyms(rules)).entries(),
)

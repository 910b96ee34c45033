import { gatewayConfig } from '@rag/config'

/** Search settings for tests: the configured defaults, and no embedding model (keyword search). */
export const keywordOnlySearch = {
  getEmbedder: async () => null,
  retrieval: gatewayConfig.parse({ DATABASE_URL: 'postgres://unused@127.0.0.1/unused' }).retrieval,
}

import { retrievalDefaults } from '@rag/config'
import type { Pool } from '@rag/db'
import type { Logger } from '@rag/log'
import { createQuestionEventSubscriber, type Producer } from '@rag/queue'
import { createApp, type GatewayDeps } from './create-app.ts'

/** Search settings for tests: the configured defaults, and no models (keyword search, extractive answers). */
export const keywordOnlySearch = {
  getEmbedder: async () => null,
  // The schema's defaults, not the environment: a test is the same on every machine.
  retrieval: retrievalDefaults(),
  models: { reranker: null, llm: null },
}

export interface TestGateway {
  app: ReturnType<typeof createApp>
  close(): Promise<void>
}

/** The gateway app over a test's database and queues (real Redis for the question events). */
export async function createTestGateway(
  infra: { pool: Pool; producer: Producer; logger: Logger; redisUrl: string; prefix: string },
  uploads: GatewayDeps['uploads'],
  overrides: Partial<GatewayDeps> = {},
): Promise<TestGateway> {
  const questionEvents = await createQuestionEventSubscriber(infra.redisUrl, infra.prefix)
  const app = createApp({
    ...keywordOnlySearch,
    pool: infra.pool,
    producer: infra.producer,
    logger: infra.logger,
    queuePrefix: infra.prefix,
    uploads,
    questionEvents,
    ...overrides,
  })
  return { app, close: () => questionEvents.close() }
}

import { z } from '@hono/zod-openapi'
import { ANSWER_MODES, DOCUMENT_STATUSES, SEARCH_MODES } from './enums.ts'
import {
  MAX_ANSWER_TOKENS,
  MAX_COLLECTION_CHARS,
  MAX_LIST_LIMIT,
  MAX_QUESTION_CHARS,
  MAX_SEARCH_K,
  MAX_TITLE_CHARS,
  MAX_TOP_K,
  MAX_URL_CHARS,
} from './limits.ts'

// Every request body and query of the HTTP API, defined once: the routes validate with these
// (and /openapi.json is generated from them), the gateway client, the web app and the MCP tools
// are typed by them and derive their inputs from them.

const collection = z.string().min(1).max(MAX_COLLECTION_CHARS)

/** Years a date a client sends may name: outside them, a typo (0000, 99999) Postgres would refuse with a 500. */
export const SANE_YEARS = { from: 1900, to: 9999 } as const

/** A date and time as ISO 8601 with its offset, within SANE_YEARS. */
export const isoDateTime = () =>
  z.iso.datetime({ offset: true }).refine(
    (value) => {
      const year = Number(value.slice(0, 4))
      return year >= SANE_YEARS.from && year <= SANE_YEARS.to
    },
    { message: `must be a date from the year ${SANE_YEARS.from} to ${SANE_YEARS.to}` },
  )
const questionText = (what: string) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`)
    .describe(`${what}, in Japanese or English`)

/** What a client may ask of an answer; anything else is refused by name (a typo should not be ignored). */
export const askOptionsSchema = z
  .object({
    topK: z.number().int().min(1).max(MAX_TOP_K).describe('Passages the answer is built from'),
    mode: z.enum(SEARCH_MODES).describe('Retrieval: hybrid (default), keyword or vector'),
    fusion: z.boolean().describe('RAG-Fusion: the LLM rephrases the question, every phrasing is searched'),
    rerank: z.boolean().describe('Reorder passages with the cross-encoder'),
    answer: z
      .enum(ANSWER_MODES)
      .describe('generate (an LLM writes it), extractive (the best passage) or none (passages only)'),
    collection: collection.describe("Only this collection's documents"),
    parents: z
      .boolean()
      .describe('Small-to-large: the parent section, not just the matched chunk, goes to the LLM'),
    maxTokens: z
      .number()
      .int()
      .min(1)
      .max(MAX_ANSWER_TOKENS)
      .describe("The generated answer's length at most (LLM_MAX_TOKENS by default)"),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .describe("The generation's randomness (LLM_TEMPERATURE by default)"),
  })
  .partial()
  .strict()
export type AskOptions = z.input<typeof askOptionsSchema>

export const askRequestSchema = z
  .object({ question: questionText('The question'), options: askOptionsSchema.default({}) })
  .strict()
export type AskRequest = z.input<typeof askRequestSchema>

/** GET /search's query string. */
export const searchQuerySchema = z
  .object({
    q: z
      .string('is required')
      .trim()
      .min(1, 'must not be empty')
      .max(MAX_QUESTION_CHARS, `must be at most ${MAX_QUESTION_CHARS} characters`)
      .openapi({ description: 'What to look for', example: '保証期間' }),
    mode: z.enum(SEARCH_MODES).default('hybrid').openapi({ description: 'Retrievers to use' }),
    k: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_K)
      .optional()
      .openapi({ description: 'Hits wanted (default SEARCH_K)' }),
    collection: collection.optional(),
    parents: z
      .enum(['true', 'false'])
      .default('true')
      .openapi({ description: 'Group chunks by parent section (small-to-large)' }),
  })
  .strict()
/** What a client of GET /search chooses (the query string's typed form). */
export interface SearchOptions {
  k?: number
  mode?: z.output<typeof searchQuerySchema>['mode']
  collection?: string
  parents?: boolean
}

/** GET /documents's query string. */
export const documentListQuerySchema = z.object({
  collection: collection.optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_LIST_LIMIT).default(100),
  offset: z.coerce.number().int().min(0).default(0),
})

/** POST /documents/url. */
export const ingestUrlRequestSchema = z
  .object({
    url: z.string().min(1).max(MAX_URL_CHARS).openapi({ example: 'https://example.com/manual.html' }),
    collection: collection.optional(),
  })
  .strict()
export type IngestUrlRequest = z.input<typeof ingestUrlRequestSchema>

const title = z.string().trim().min(1).max(MAX_TITLE_CHARS)

/** POST /conversations. */
export const createConversationRequestSchema = z
  .object({ title: title.optional(), collection: collection.optional() })
  .strict()
export type CreateConversationRequest = z.input<typeof createConversationRequestSchema>

/** PATCH /conversations/{id}. */
export const renameConversationRequestSchema = z.object({ title }).strict()

/** POST /conversations/{id}/messages (the message's length is checked by the route: 413 past it). */
export const conversationMessageRequestSchema = z
  .object({
    message: z.string().openapi({ maxLength: MAX_QUESTION_CHARS }),
    options: askOptionsSchema.default({}),
  })
  .strict()

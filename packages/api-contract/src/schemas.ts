import { z } from '@hono/zod-openapi'
import {
  ANSWER_MODES,
  ANSWER_TYPES,
  DOCUMENT_STATUSES,
  OCR_DIRECTIONS,
  QUESTION_STATUSES,
  REFUSAL_DECIDERS,
  RETRIEVERS,
  SEARCH_MODES,
  SOURCE_TYPES,
} from './enums.ts'

// Every response body of the HTTP API, defined once. The routes declare and validate with these
// (so /openapi.json is generated from them), the gateway client parses responses with them, the
// web app and the MCP server take their types from them.

export const documentSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    filename: z.string(),
    type: z.enum(SOURCE_TYPES),
    status: z.enum(DOCUMENT_STATUSES),
    stage: z
      .enum(DOCUMENT_STATUSES)
      .nullable()
      .openapi({ description: 'The stage working on it, null when done' }),
    progress: z.number().openapi({ description: 'Share of its parts stored, 0..1' }),
    chunkCount: z.number(),
    vectorsPending: z.number().openapi({
      description:
        'Chunks searchable by keyword whose vectors wait for the embedding model (filled in when it is available)',
    }),
    ocrPages: z.object({ read: z.number().int(), total: z.number().int() }).nullable().openapi({
      description:
        'While pages without a text layer are read by OCR (one job each): how many of them are read so far; null otherwise',
    }),
    missingPages: z.array(z.object({ page: z.number().int(), reason: z.string() })).openapi({
      description:
        'Pages that could not be read (too large, unreadable, past OCR_MAX_PAGES) and why: the document is searchable without them (the first 100)',
    }),
    ocrReadings: z
      .array(
        z.object({
          page: z.number().int(),
          confidence: z.number().openapi({ description: 'Mean confidence of the words read, 0–100' }),
          direction: z.enum(OCR_DIRECTIONS).openapi({
            description: 'The model that read it: vertical for a 縦書き page read again with jpn_vert',
          }),
        }),
      )
      .openapi({
        description:
          'How OCR read each page it read (a scanned PDF page, a picture): a page below OCR_MIN_CONFIDENCE is also among missingPages, not indexed (the first 1,000)',
      }),
    sizeBytes: z.number(),
    tags: z.array(z.string()),
    sourceUrl: z.string().nullable().openapi({ description: 'A web page: the URL it was fetched from' }),
    error: z.string().nullable().openapi({ description: 'Why it failed' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Document')

export const uploadResultSchema = z
  .object({
    documents: z.array(documentSchema.extend({ action: z.string() })),
    rejected: z.array(z.object({ filename: z.string(), status: z.number(), error: z.string() })),
  })
  .openapi('UploadResult')

export const documentListSchema = z.object({ documents: z.array(documentSchema) }).openapi('DocumentList')

export const sectionsPageSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    status: z.enum(DOCUMENT_STATUSES),
    total: z.number().int().openapi({ description: 'Sections in the document' }),
    next: z.string().nullable().openapi({ description: 'The next page, or null at the end' }),
    offset: z.number().int().openapi({ description: 'Position of the first section of this page' }),
    sections: z.array(
      z.object({
        sourceId: z.string(),
        heading: z.string().nullable(),
        text: z.string(),
        ocr: z
          .boolean()
          .openapi({ description: 'Read by OCR from a picture of the text: may hold misreadings' }),
      }),
    ),
  })
  .openapi('SectionsPage')

/** Where a passage stands on a page: what a viewer highlights (PDF points from the page's top-left). */
export const regionSchema = z
  .object({
    page: z.number().int().openapi({ description: '1-based page' }),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
  })
  .openapi('Region')

export const documentChunksPageSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    total: z.number().int().openapi({ description: 'Chunks matching (all of them without q or page)' }),
    offset: z.number().int(),
    next: z.string().nullable().openapi({ description: 'The next page, or null at the end' }),
    chunks: z.array(
      z.object({
        sourceId: z.string().openapi({ description: 'What answers cite it as' }),
        section: z.string().openapi({ description: 'The source id of the section around it' }),
        heading: z.string().nullable().openapi({ description: 'Its heading path, indexed with it' }),
        text: z.string(),
        regions: z
          .array(regionSchema)
          .openapi({ description: 'Where it stands on its pages (PDFs and scans)' }),
        ocr: z.boolean().openapi({ description: 'Read by OCR: may hold misreadings' }),
        citedBy: z
          .array(
            z.object({
              questionId: z.string(),
              question: z.string(),
              askedAt: z.string(),
              refused: z.boolean().openapi({ description: 'Looked at, but the question was refused' }),
            }),
          )
          .openapi({
            description:
              'The latest questions whose answers cite it (up to 3): everyone’s for editors and admins, a reader’s own for a reader',
          }),
      }),
    ),
  })
  .openapi('DocumentChunksPage')

export const searchHitSchema = z
  .object({
    rank: z.number(),
    chunkId: z.string(),
    sourceId: z.string().openapi({ example: 'lumina-guide.pdf:p5', description: 'What to cite' }),
    documentId: z.string(),
    title: z.string().openapi({ description: 'The document file name' }),
    collection: z.string().openapi({ description: "The document's collection" }),
    score: z.number(),
    text: z.string().openapi({ description: 'The matched chunk' }),
    parentId: z.string(),
    heading: z
      .string()
      .nullable()
      .openapi({ description: 'Its heading path in the document (第3章 在宅勤務 › 3.1 申請の手順)' }),
    parentText: z.string().openapi({ description: 'The parent section around the chunk' }),
    foundBy: z
      .array(z.enum(RETRIEVERS))
      .openapi({ description: 'The retrievers that found it: keyword (words), vector (meaning)' }),
    regions: z.array(regionSchema).openapi({
      description: 'Where the chunk stands on its pages (PDFs and scans; empty for other formats)',
    }),
    lines: z
      .object({ from: z.number().int(), to: z.number().int() })
      .nullable()
      .optional()
      .openapi({ description: 'The lines of a text file (Markdown, plain text) its section spans, 1-based' }),
  })
  .openapi('SearchHit')

export const searchResultSchema = z
  .object({
    query: z.string(),
    mode: z.enum(SEARCH_MODES),
    hits: z.array(searchHitSchema),
    degraded: z.array(z.string()).openapi({ description: 'Retrievers asked for that could not run' }),
    timings: z.object({
      keywordMs: z.number().optional(),
      vectorMs: z.number().optional(),
      totalMs: z.number(),
    }),
  })
  .openapi('SearchResult')

/** Why a passage was found, in a reader's terms: what the "why" panel shows. */
export const sourceWhySchema = z
  .object({
    words: z
      .array(z.string())
      .openapi({ description: "The passage's own words for the question's words (保証期間, warranty)" }),
    synonyms: z.array(z.object({ said: z.string(), for: z.string() })).openapi({
      description: 'Its words that say a word of the question another way (a synonym), and for which',
    }),
    keywordRank: z.number().int().optional().openapi({ description: 'Its place in the keyword ranking' }),
    vectorRank: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Its place in the vector (meaning) ranking' }),
    fusedRank: z.number().int().optional().openapi({ description: 'Its place in the fused ranking' }),
    rerankerProbability: z
      .number()
      .optional()
      .openapi({ description: 'The reranker’s probability that it answers, when a reranker judged it' }),
  })
  .openapi('SourceWhy')

export const questionSourceSchema = z
  .object({
    rank: z.number().openapi({ description: 'The answer cites this passage as [rank]' }),
    sourceId: z.string().openapi({ example: 'faq.csv:r12' }),
    documentId: z.string(),
    title: z.string(),
    collection: z
      .string()
      .nullable()
      .openapi({ description: "The document's collection (null in answers stored before it was recorded)" }),
    score: z.number().openapi({ description: 'Evidence 0..1: reranker relevance, else term coverage' }),
    retrievalScore: z.number(),
    text: z.string(),
    parentText: z.string(),
    heading: z.string().nullable().openapi({ description: 'Its heading path in the document' }),
    foundBy: z.array(z.enum(RETRIEVERS)).optional().openapi({
      description:
        'The retrievers that found it (keyword: words, vector: meaning); absent in answers stored before it was recorded',
    }),
    regions: z.array(regionSchema).optional().openapi({
      description: 'Where the passage stands on its pages: the viewer opens the page with these highlighted',
    }),
    lines: z
      .object({ from: z.number().int(), to: z.number().int() })
      .optional()
      .openapi({ description: 'The lines of a text file (Markdown, plain text) its section spans, 1-based' }),
    why: sourceWhySchema.optional().openapi({
      description: 'Why it was found; absent in answers stored before it was recorded',
    }),
  })
  .openapi('QuestionSource')

export const questionSchema = z
  .object({
    id: z.string(),
    status: z.enum(QUESTION_STATUSES),
    question: z.string(),
    options: z.object({
      topK: z.number(),
      mode: z.enum(SEARCH_MODES),
      fusion: z.boolean(),
      rerank: z.boolean(),
      answer: z.enum(ANSWER_MODES),
      collection: z.string().optional(),
      parents: z.boolean(),
      maxTokens: z.number().optional(),
      temperature: z.number().optional(),
    }),
    answer: z.string().nullable(),
    provisional: z.boolean().openapi({
      description:
        'True while `answer` is the extractive stand-in (the sentence that answers, with its citation) the generated answer will replace',
    }),
    queue: z
      .object({
        position: z
          .number()
          .int()
          .openapi({ description: 'Questions before this one for the LLM (1 = next)' }),
        estimatedWaitSeconds: z.number().openapi({ description: 'From the recent answers’ generation time' }),
      })
      .nullable()
      .openapi({ description: 'While the question waits for the LLM: where it stands in line' }),
    refused: z.boolean().nullable().openapi({ description: 'True when the documents hold no answer' }),
    answerability: z
      .object({
        probability: z.number().openapi({
          description:
            'How likely the passages answer, by the judgement fitted over the word signals (refused below REFUSAL_THRESHOLD when the words decide)',
        }),
        signals: z.record(z.string(), z.number()).optional().openapi({
          description:
            'What the judgement read (docs/evaluation.md), within the collections searched; shown to admins only',
        }),
        decidedBy: z.enum(REFUSAL_DECIDERS).optional().openapi({
          description:
            'words: the judgement above; reranker: the cross-encoder (asked for, or judging the passages the embedder found after the words said no)',
        }),
        rerankerProbability: z.number().optional().openapi({
          description:
            'The reranker’s best probability over the passages the embedder found, when it judged them',
        }),
        calibrated: z.boolean().optional().openapi({
          description: "Judged by the collection's own calibration (rag calibrate), not the shipped model",
        }),
        deciding: z.array(z.string()).optional().openapi({
          description:
            'The signals (docs/evaluation.md) that weighed most toward what the words decided, strongest first',
        }),
        threshold: z.number().optional().openapi({
          description:
            'What the deciding number (the probability, or the reranker’s) was held against: below it, refused',
        }),
      })
      .nullable()
      .openapi({ description: 'Whether the documents answer, as judged before the answer was written' }),
    citations: z.array(
      z.object({
        marker: z.number(),
        sourceId: z.string(),
        // For an extractive answer: the pieces of the passage's text it was taken from.
        quotes: z.array(z.string()).optional(),
        span: z.string().optional().openapi({
          description:
            'For an extractive answer: its short answer (a number with its unit, a date, a name, yes/no), which the answer text leads with',
        }),
        spanType: z.enum(ANSWER_TYPES).optional().openapi({
          description:
            'The kind of answer the span is: the kind the question asks for (a date for when, a number for how many)',
        }),
      }),
    ),
    sources: z.array(questionSourceSchema),
    degraded: z.array(z.string()).openapi({ description: 'Capabilities asked for that were unavailable' }),
    queries: z.array(z.string()).nullable().openapi({ description: 'RAG-Fusion: the rephrasings searched' }),
    conversationId: z.string().nullable().openapi({ description: 'The thread the question is a turn of' }),
    searchQuery: z.string().nullable().openapi({
      description: 'What was searched for when the question was a follow-up rewritten to stand alone',
    }),
    timings: z.record(z.string(), z.number()),
    usage: z
      .object({
        promptTokens: z.number(),
        completionTokens: z.number(),
        stoppedAtCap: z.boolean().optional().openapi({
          description:
            'The answer stopped at the output cap (max_tokens, or the server’s GENERATION_MAX_TOKENS)',
        }),
      })
      .nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string().nullable().openapi({
      description: 'ISO 8601; null for a turn of a conversation, kept as long as the conversation',
    }),
  })
  .openapi('Question')

export const conversationSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    collection: z.string().nullable().openapi({ description: 'Its questions search this collection only' }),
    turns: z.number().openapi({ description: 'Questions asked in it' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Conversation')

export const conversationListSchema = z
  .object({ conversations: z.array(conversationSchema) })
  .openapi('ConversationList')

export const conversationDetailSchema = z
  .object({ conversation: conversationSchema, turns: z.array(questionSchema) })
  .openapi('ConversationDetail')

export const askAcceptedSchema = z
  .object({
    id: z.string(),
    status: z.literal('queued'),
    links: z.object({ self: z.string(), events: z.string() }),
  })
  .openapi('AskAccepted')

/** What every error response is: `{error: {message}}`, sometimes with details (field, rejected files). */
export const errorSchema = z
  .object({
    error: z.looseObject({
      message: z
        .string()
        .openapi({ example: 'invalid query parameter k: Too small: expected number to be >=1' }),
      field: z.string().optional(),
    }),
  })
  .openapi('Error')

export type ApiDocument = z.output<typeof documentSchema>
export type ApiUploadResult = z.output<typeof uploadResultSchema>
export type ApiSectionsPage = z.output<typeof sectionsPageSchema>
export type ApiSearchHit = z.output<typeof searchHitSchema>
export type ApiDocumentChunksPage = z.output<typeof documentChunksPageSchema>
export type ApiSearchResult = z.output<typeof searchResultSchema>
export type ApiQuestionSource = z.output<typeof questionSourceSchema>
export type ApiQuestion = z.output<typeof questionSchema>
export type ApiAskAccepted = z.output<typeof askAcceptedSchema>
export type ApiError = z.output<typeof errorSchema>
export type ApiConversation = z.output<typeof conversationSchema>
export type ApiConversationDetail = z.output<typeof conversationDetailSchema>

import { z } from 'zod'
import { defineJob, jobIdOf, partPriority } from './job-definition.ts'

const documentStage = z.object({
  documentId: z.uuid(),
  // The content this job is about: a re-upload with new content gets new job ids.
  contentHash: z.string().regex(/^[a-f0-9]{16,64}$/),
})

// Large documents fan out: the parser cuts them into parts, and every later stage runs per part.
const partStage = documentStage.extend({ part: z.number().int().min(0) })

const short = (hash: string) => hash.slice(0, 16)

export const parseJob = defineJob({
  name: 'ingest.parse',
  payload: documentStage,
  jobId: (p) => jobIdOf(p.documentId, short(p.contentHash), 'parse'),
})

/** A stage that runs per part of a document: its job is named, identified and ordered as the others. */
const partJob = (stage: 'ocr' | 'chunk' | 'embed' | 'store') =>
  defineJob({
    name: `ingest.${stage}`,
    payload: partStage,
    jobId: (p) => jobIdOf(p.documentId, short(p.contentHash), p.part, stage),
    priority: partPriority,
  })

/**
 * A PDF page without a text layer, read by OCR in a job of its own (seconds a page): a scanned
 * book never holds a parse slot, its pages spread over the OCR workers, and a retry redoes only
 * the page it is about.
 */
export const ocrJob = partJob('ocr')
export const chunkJob = partJob('chunk')
export const embedJob = partJob('embed')
export const storeJob = partJob('store')

const questionStage = z.object({ questionId: z.uuid() })

export const retrieveJob = defineJob({
  name: 'question.retrieve',
  // A question is searched once, after the LLM made a follow-up stand alone or rephrased it.
  payload: questionStage,
  jobId: (p) => jobIdOf(p.questionId, 'retrieve'),
  // A question is interactive: retry quickly, give up soon, report the failure.
  options: { attempts: 3, backoff: { type: 'exponential', delay: 500 } },
})

export const rerankJob = defineJob({
  name: 'question.rerank',
  payload: questionStage,
  jobId: (p) => jobIdOf(p.questionId, 'rerank'),
  options: { attempts: 3, backoff: { type: 'exponential', delay: 500 } },
})

/**
 * The LLM's tasks share its queue (one model per process): answering, rephrasing for RAG-Fusion,
 * and rewriting a follow-up to stand alone.
 */
export const generateJob = defineJob({
  name: 'question.generate',
  payload: questionStage.extend({ task: z.enum(['answer', 'rephrase', 'rewrite']).default('answer') }),
  jobId: (p) => jobIdOf(p.questionId, p.task === 'answer' ? 'generate' : p.task),
  options: { attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
})

/**
 * One sync of a source (packages/sources): its id is the source's, so a source has one sync
 * waiting or running at a time — a lock that outlives a worker's death (BullMQ hands a stalled
 * sync to the next worker). The sync's record in Postgres carries `syncId`.
 */
export const sourceSyncJob = defineJob({
  name: 'source.sync',
  payload: z.object({ sourceId: z.uuid(), syncId: z.uuid(), trigger: z.string().max(200) }),
  jobId: (p) => jobIdOf('source', p.sourceId),
  // A listing that fails is recorded as the sync's outcome, not thrown: a retry is for a crash.
  options: { attempts: 2, backoff: { type: 'exponential', delay: 5000 } },
})

/** The ingestion pipeline's jobs, in the order a document goes through them. */
export const ingestionJobs = {
  parse: parseJob,
  ocr: ocrJob,
  chunk: chunkJob,
  embed: embedJob,
  store: storeJob,
} as const
/** The question pipeline's jobs (its route is the question's own: see nextStep in @rag/questions). */
export const questionJobs = { retrieve: retrieveJob, rerank: rerankJob, generate: generateJob } as const

/** Every job type; one queue each (a sync runs in the watcher, which keeps places in sync). */
export const ALL_JOBS = [
  ...Object.values(ingestionJobs),
  ...Object.values(questionJobs),
  sourceSyncJob,
] as const
export const QUEUE_NAMES = ALL_JOBS.map((job) => job.name)

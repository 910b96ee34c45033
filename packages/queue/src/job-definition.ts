import type { JobsOptions } from 'bullmq'
import type { z } from 'zod'

/** Retries for transient failures (database restart, model busy): 1 s, 2 s, 4 s, 8 s. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  // Postgres keeps the lasting state; Redis keeps only enough history for the dashboard.
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
} as const satisfies JobsOptions

export interface JobDefinition<Schema extends z.ZodType> {
  /** Dotted name; also the queue it runs on (one job type per queue, one worker process per queue). */
  name: string
  payload: Schema
  /** Derived from what the job is about, so a duplicate enqueue or a retry is absorbed. */
  jobId: (payload: z.output<Schema>) => string
  options?: JobsOptions
  /**
   * Its place among the queue's waiting jobs (BullMQ: 1 first), when the payload decides it: set on
   * every enqueue, by every caller (the pipeline, the reconciler, a re-index), unless one gives its own.
   */
  priority?: (payload: z.output<Schema>) => number
}

/** BullMQ's lowest priority (2^21 − 1: it refuses 2^21); 1 is its highest. */
export const LOWEST_PRIORITY = 2 ** 21 - 1

/**
 * Parts of documents served in turns: a document's part N waits behind every document's part N−1,
 * so a short document uploaded behind a 500-page scan or a million-row CSV is read, chunked,
 * embedded and stored after the current part of the big one, not after all of it (round robin by
 * position; parts of the same position in order of arrival).
 */
export const partPriority = ({ part }: { part: number }) => Math.min(part + 1, LOWEST_PRIORITY)

export function defineJob<Schema extends z.ZodType>(
  definition: JobDefinition<Schema>,
): JobDefinition<Schema> {
  return definition
}

export type PayloadOf<D> = D extends JobDefinition<infer S> ? z.output<S> : never

/** BullMQ forbids ":" in custom ids; ids are made of these safe parts. */
export function jobIdOf(...parts: (string | number)[]): string {
  return parts.map((part) => String(part).replace(/[^A-Za-z0-9_.-]/g, '_')).join('.')
}

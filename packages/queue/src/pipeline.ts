import type { z } from 'zod'
import type { FinalFailure } from './final-failure.ts'
import type { JobDefinition } from './job-definition.ts'
import type { JobHandler } from './job-handler.ts'

/**
 * One step of a pipeline: its job, how a process builds the job's handler (once, from the
 * context it has: settings, connections, models), and what a job failing for good means.
 */
export interface PipelineStep<S extends z.ZodType, Ctx> {
  job: JobDefinition<S>
  handler: (context: Ctx) => JobHandler<S>
  /** A job that will not run again (attempts used up, unrecoverable, or its worker lost too often). */
  onFinalFailure: (context: Ctx) => (payload: z.output<S>, failure: FinalFailure) => Promise<void>
}

// biome-ignore lint/suspicious/noExplicitAny: a catalog holds jobs of every payload
export type JobCatalog = Record<string, JobDefinition<any>>
type SchemaOf<D> = D extends JobDefinition<infer S> ? S : never

/** A pipeline's table: exactly one step per job of its catalog, with whatever the pipeline adds (`Extra`). */
export type Pipeline<C extends JobCatalog, Ctx, Extra = unknown> = {
  readonly [K in keyof C]: PipelineStep<SchemaOf<C[K]>, Ctx> & Extra
}

/**
 * Pairs each job of a catalog with its step. The mapped type forces exactly one step per job: a
 * job left without a handler, or a step for no job, does not compile. Curried so the context and
 * the extra fields are named once and the catalog's keys inferred.
 */
export function definePipeline<Ctx, Extra = unknown>() {
  return <C extends JobCatalog>(
    jobs: C,
    steps: { [K in keyof C]: Omit<PipelineStep<SchemaOf<C[K]>, Ctx>, 'job'> & Extra },
  ): Pipeline<C, Ctx, Extra> =>
    Object.fromEntries(
      Object.entries(steps).map(([name, step]) => [name, { ...step, job: jobs[name] }]),
    ) as Pipeline<C, Ctx, Extra>
}

/** The steps of a pipeline, in the catalog's order. */
export function stepsOf<C extends JobCatalog, Ctx, Extra>(
  pipeline: Pipeline<C, Ctx, Extra>,
): (PipelineStep<z.ZodType, Ctx> & Extra)[] {
  return Object.values(pipeline) as (PipelineStep<z.ZodType, Ctx> & Extra)[]
}

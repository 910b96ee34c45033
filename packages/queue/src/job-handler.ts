import type { Logger } from '@rag/log'
import type { z } from 'zod'

/** What a handler knows of the run it is in; the same whether BullMQ or the direct runner runs it. */
export interface JobContext {
  jobId: string
  /** 1 on the first run. */
  attempt: number
  /** A failure now is final: no attempt is left. */
  lastAttempt: boolean
  /** The job ran before: a retry, or taken over from a worker that stopped under it. */
  resumed: boolean
  logger: Logger
  /** Reports progress (0..1) to the dashboard. */
  progress(fraction: number): Promise<void>
  /**
   * Gives the job's place to those waiting: it goes back in its queue behind them (no attempt is
   * counted) and runs again from its start. Ends the handler: never returns.
   */
  yieldTurn(): Promise<never>
}

export type JobHandler<S extends z.ZodType> = (payload: z.output<S>, context: JobContext) => Promise<unknown>

import type { Queue } from 'bullmq'

export interface QueueHealth {
  ok: boolean
  /** Worker processes currently attached; 0 means jobs would wait forever. */
  workers: number
  waiting: number
  active: number
  delayed: number
  failed: number
  error?: string
}

export async function checkQueueHealth(queue: Queue): Promise<QueueHealth> {
  try {
    const [workers, counts] = await Promise.all([
      queue.getWorkersCount(),
      queue.getJobCounts('waiting', 'active', 'delayed', 'failed'),
    ])
    return {
      ok: workers > 0,
      workers,
      waiting: counts.waiting ?? 0,
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      failed: counts.failed ?? 0,
      ...(workers > 0 ? {} : { error: 'no worker is attached to this queue' }),
    }
  } catch (error) {
    return {
      ok: false,
      workers: 0,
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 0,
      error: error instanceof Error ? error.message : String(error),
    }
  }
}

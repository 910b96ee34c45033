import { workerConfigs } from '@rag/config'
import { ALL_JOBS } from '@rag/queue'
import { describe, expect, it } from 'vitest'
import { PROCESSES, WORKER_PROCESS_NAMES, workersOf } from './processes.ts'

describe('the process catalog', () => {
  it('runs every queue in exactly one process, each worker with its own config', () => {
    const queues = Object.values(PROCESSES).flatMap((entry) => ('queue' in entry ? [entry.queue] : []))
    expect(queues.sort()).toEqual(ALL_JOBS.map((job) => job.name).sort())
    expect([...WORKER_PROCESS_NAMES].sort()).toEqual(Object.keys(workerConfigs).sort())
  })

  it('lists the ingestion workers in pipeline order', () => {
    expect(workersOf('ingestion')).toEqual([
      'worker-parse',
      'worker-ocr',
      'worker-chunk',
      'worker-embed',
      'worker-store',
    ])
  })
})

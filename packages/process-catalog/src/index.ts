export {
  bundleOf,
  entryArgs,
  type ProcessCommand,
  processArguments,
  processCommands,
  workerMetricsPorts,
} from './process-command.ts'
export {
  PROCESS_NAMES,
  PROCESSES,
  type ProcessName,
  WORKER_ENTRY,
  WORKER_PROCESS_NAMES,
  type WorkerProcessName,
  workersOf,
} from './processes.ts'

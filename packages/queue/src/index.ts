export { publishComponentStatus, readComponentStatuses } from './component-status.ts'
export { createDirectRunner, type DirectRunner } from './direct-runner.ts'
export { describeFinalFailure, type FinalFailure, finalFailureOf } from './final-failure.ts'
export {
  DEFAULT_JOB_OPTIONS,
  defineJob,
  type JobDefinition,
  jobIdOf,
  LOWEST_PRIORITY,
  type PayloadOf,
  partPriority,
} from './job-definition.ts'
export type { JobContext, JobHandler } from './job-handler.ts'
export * from './jobs.ts'
export {
  definePipeline,
  type JobCatalog,
  type Pipeline,
  type PipelineStep,
  stepsOf,
} from './pipeline.ts'
export { createProducer, type Producer } from './producer.ts'
export {
  createQuestionEventSubscriber,
  type PublishQuestionEvent,
  type QuestionEvent,
  type QuestionEventInput,
  type QuestionEventSubscriber,
  questionEventPublisher,
  readPartialAnswer,
} from './question-events.ts'
export { checkQueueHealth, type QueueHealth } from './queue-health.ts'
export {
  type ConnectionRole,
  connectRedis,
  createRedisClient,
  RedisUnavailableError,
  redisConnectionOptions,
  redisOptionsFromUrl,
  waitForRedis,
} from './redis-connection.ts'
export { checkRedisSettings, type RedisSettingProblem } from './redis-settings.ts'
export { createRevocationChannel, type RevocationChannel } from './revocation-channel.ts'
export { checkSentinels, type SentinelProblem, type SentinelView } from './sentinel-agreement.ts'
export {
  type StartWorkerOptions,
  type StepWorkerOptions,
  startStepWorker,
  startWorker,
  UnrecoverableError,
} from './start-worker.ts'

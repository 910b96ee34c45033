export {
  collectionHoldsSource,
  deleteEvaluationCase,
  type EvaluationCase,
  listEvaluationCases,
  saveEvaluationCase,
} from './evaluation-cases.ts'
export {
  collectionsOf,
  type FeedbackFilter,
  type FeedbackRecord,
  type GivenFeedback,
  listFeedback,
  readFeedback,
  saveFeedback,
} from './feedback-store.ts'

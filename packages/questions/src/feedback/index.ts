export {
  collectionsOf,
  type FeedbackFilter,
  type FeedbackRecord,
  type GivenFeedback,
  listFeedback,
  saveFeedback,
} from './feedback-store.ts'

export { type AnswerContext, type ContextPassage, passageHeader, selectContext } from './answer-context.ts'
export { answerDeclines } from './answer-declines.ts'
export { type AnswerPosition, fingerprintOf, HeldAnswer } from './answer-position.ts'
export { ANSWER_SYSTEM_PROMPT, buildAnswerPrompt, type TokenBudget } from './answer-prompt.ts'
export {
  ANSWERABILITY_MODEL,
  type AnswerabilityExample,
  type AnswerabilityModel,
  answerProbability,
  fitAnswerability,
} from './answerability-model.ts'
export { type Asker, askQuestion, type QuestionRequest } from './ask-question.ts'
export {
  CALIBRATION_LIMITS,
  CalibrationError,
  type CalibrationQuestion,
  type CalibrationReport,
  calibrateCollection,
  calibrationFor,
  crossValidatedFit,
  deleteCalibration,
  readCalibration,
  type StoredCalibration,
} from './calibration/index.ts'
export { citationsOf, normalizeCitationMarkers } from './citations.ts'
export {
  type Conversation,
  conversationQuestionIds,
  createConversation,
  deleteConversation,
  HISTORY_TURNS,
  listConversations,
  readConversation,
  renameConversation,
} from './conversations/conversation-store.ts'
export { followUpQuery } from './conversations/follow-up-query.ts'
export {
  collectionHoldsSource,
  collectionsOf,
  deleteEvaluationCase,
  type EvaluationCase,
  type FeedbackFilter,
  type FeedbackRecord,
  type GivenFeedback,
  listEvaluationCases,
  listFeedback,
  readFeedback,
  saveEvaluationCase,
  saveFeedback,
} from './feedback/index.ts'
export { buildFusionPrompt, parseRephrasings } from './fusion-prompt.ts'
export { type QuestionWorkersOptions, startQuestionWorkers } from './in-process-workers.ts'
export { type Language, languageOf, REFUSALS, refusalOf } from './language.ts'
export { queueSpotOf, waitsItsTurn } from './question-line.ts'
export type { AnsweringModels, QuestionOptions } from './question-options.ts'
export { questionPipeline } from './question-pipeline.ts'
export { jobOfStep, nextStep, QUESTION_STEPS, type QuestionStep } from './question-route.ts'
export {
  type Answerability,
  type Citation,
  type ConversationTurn,
  createQuestion,
  deleteExpiredQuestions,
  isFinished,
  QUESTION_STATUSES,
  type QuestionRecord,
  type QuestionSource,
  type QuestionStatus,
  readQuestion,
} from './question-store.ts'
export { type CitingQuestion, questionsCiting } from './questions-citing.ts'
export { reconcileQuestions } from './reconcile-questions.ts'
export {
  foundByMeaning,
  refusalScore,
  refusalThresholdFor,
  refuses,
  type ScoreScale,
} from './refusal-decision.ts'
export { CANCEL_CHECK_MS } from './stages/answer-task.ts'
export { handOnNextAnswer } from './stages/hand-on.ts'
export { type QuestionContext, questionWorkerContext } from './stages/question-context.ts'
export { cancelQuestion } from './stages/question-progress.ts'
export { failStalledQuestions } from './stalled-questions.ts'
export {
  type QuestionUpdate,
  type QueueSpot,
  type WatchDeps,
  type WatchedQuestion,
  type WatchOptions,
  watchQuestion,
} from './watch-question.ts'

import { z } from '@hono/zod-openapi'
import { FEEDBACK_REASONS, FEEDBACK_VERDICTS } from './enums.ts'
import { MAX_FEEDBACK_COMMENT_CHARS } from './limits.ts'

export const feedbackRequestSchema = z
  .object({
    verdict: z.enum(FEEDBACK_VERDICTS).openapi({ description: 'up: the answer was right; down: it was not' }),
    reason: z.enum(FEEDBACK_REASONS).optional().openapi({
      description:
        'Why it was wrong: wrong-source, should-have-refused (the documents do not say), should-have-answered (they do), incomplete',
    }),
    comment: z
      .string()
      .max(MAX_FEEDBACK_COMMENT_CHARS, { error: `comment: at most ${MAX_FEEDBACK_COMMENT_CHARS} characters` })
      .optional(),
  })
  .openapi('FeedbackRequest')

export const feedbackSchema = z
  .object({
    id: z.string(),
    questionId: z.string().nullable().openapi({ description: 'Null once the question itself has expired' }),
    question: z.string(),
    answer: z.string().nullable(),
    refused: z.boolean().nullable(),
    sources: z.array(z.string()).openapi({ description: 'The sources the answer was given, in rank order' }),
    collections: z.array(z.string()).openapi({ description: 'The collections asked and answered from' }),
    verdict: z.enum(FEEDBACK_VERDICTS),
    reason: z.enum(FEEDBACK_REASONS).nullable(),
    comment: z.string().nullable(),
    givenBy: z.string().openapi({ description: 'The key or person that gave it (its name)' }),
    createdAt: z.string(),
  })
  .openapi('Feedback')

export const feedbackListSchema = z.object({ feedback: z.array(feedbackSchema) }).openapi('FeedbackList')

export type ApiFeedback = z.output<typeof feedbackSchema>
export type FeedbackRequest = z.output<typeof feedbackRequestSchema>

export const evaluationCaseRequestSchema = z
  .object({
    source: z.string().min(1).max(500).nullable().openapi({
      description:
        'The source id that answers the question (guide.pdf:p5), or null: the documents do not say',
    }),
    collection: z.string().min(1).max(200).optional().openapi({
      description: 'The collection whose set it joins; needed when the feedback spans several',
    }),
  })
  .openapi('EvaluationCaseRequest')

export const evaluationCaseSchema = z
  .object({
    id: z.string(),
    collection: z.string(),
    question: z.string(),
    expectedSource: z.string().nullable().openapi({ description: 'null: the collection must refuse it' }),
    feedbackId: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
  })
  .openapi('EvaluationCase')

export const evaluationCaseListSchema = z
  .object({ cases: z.array(evaluationCaseSchema) })
  .openapi('EvaluationCaseList')

export type ApiEvaluationCase = z.output<typeof evaluationCaseSchema>

import { z } from '@hono/zod-openapi'

// Kept evaluation runs, as the Evaluation view reads them (`pnpm eval --save`, or a collection's
// run started from the web app).

export const evaluationRunSchema = z
  .object({
    id: z.string(),
    collection: z
      .string()
      .nullable()
      .openapi({ description: 'Null for a dataset run (pnpm eval --dataset)' }),
    dataset: z.string(),
    status: z.enum(['running', 'done', 'failed']),
    error: z.string().nullable(),
    done: z.number().int().openapi({ description: 'Questions answered so far (over every configuration)' }),
    total: z.number().int(),
    startedBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('EvaluationRun')

export const evaluationRunListSchema = z
  .object({ runs: z.array(evaluationRunSchema) })
  .openapi('EvaluationRunList')

const histogramSchema = z.object({ from: z.number(), width: z.number(), counts: z.array(z.number()) })
const sweepPointSchema = z.object({
  threshold: z.number(),
  accuracy: z.number(),
  noAnswerAccuracy: z.number().nullable(),
  falseRefusalRate: z.number().nullable(),
})

export const evaluationReportSchema = z
  .object({
    dataset: z.object({
      name: z.string(),
      format: z.string(),
      documents: z.number(),
      questions: z.number(),
      answerable: z.number(),
    }),
    settings: z.looseObject({ refusalThreshold: z.number(), rerankRefusalThreshold: z.number() }),
    configs: z.array(
      z.looseObject({
        name: z.string(),
        scale: z.enum(['evidence', 'reranker']),
        metrics: z.record(z.string(), z.number().nullable()),
        sweep: z.array(sweepPointSchema),
        best: sweepPointSchema.nullable(),
        degraded: z.array(z.string()),
        histograms: z
          .object({ totalMs: histogramSchema.optional(), retrieveMs: histogramSchema.optional() })
          .optional(),
      }),
    ),
  })
  .openapi('EvaluationReport')

export const evaluationRunDetailSchema = evaluationRunSchema
  .extend({
    report: evaluationReportSchema.nullable().openapi({ description: 'Null until the run is done' }),
  })
  .openapi('EvaluationRunDetail')

export const evaluationQuestionsPageSchema = z
  .object({
    total: z.number().int(),
    offset: z.number().int(),
    next: z.string().nullable(),
    questions: z.array(
      z.looseObject({
        id: z.string(),
        query: z.string(),
        answerable: z.boolean(),
        expectedSource: z.string().nullable(),
        gold: z.array(z.string()),
        sources: z.array(
          z.object({
            rank: z.number(),
            sourceId: z.string(),
            document: z.string().nullable(),
            score: z.number(),
          }),
        ),
        refused: z.boolean(),
        answer: z.string().nullable(),
        correct: z.boolean().openapi({ description: 'Right at the configured threshold' }),
      }),
    ),
  })
  .openapi('EvaluationQuestionsPage')

export type ApiEvaluationRun = z.output<typeof evaluationRunSchema>
export type ApiEvaluationRunDetail = z.output<typeof evaluationRunDetailSchema>
export type ApiEvaluationQuestionsPage = z.output<typeof evaluationQuestionsPageSchema>

import type { Pool } from '@rag/db'
import { type AnswerabilityModel, answerabilityModelProblem } from '../answerability-model.ts'
import type { CalibrationReport } from './calibration-report.ts'

export interface StoredCalibration {
  collection: string
  model: AnswerabilityModel
  report: CalibrationReport
  updatedAt: string
  updatedBy: string | null
}

const COLUMNS = `collection, model, report, updated_at AS "updatedAt", updated_by AS "updatedBy"`

export async function readCalibration(
  pool: Pick<Pool, 'query'>,
  collection: string,
): Promise<StoredCalibration | null> {
  const { rows } = await pool.query<StoredCalibration>(
    `SELECT ${COLUMNS} FROM collection_calibration WHERE collection = $1`,
    [collection],
  )
  return rows[0] ?? null
}

export async function saveCalibration(
  pool: Pick<Pool, 'query'>,
  calibration: Pick<StoredCalibration, 'collection' | 'model' | 'report' | 'updatedBy'>,
): Promise<StoredCalibration> {
  const { rows } = await pool.query<StoredCalibration>(
    `INSERT INTO collection_calibration (collection, model, report, updated_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (collection) DO UPDATE
        SET model = excluded.model, report = excluded.report, updated_by = excluded.updated_by, updated_at = now()
     RETURNING ${COLUMNS}`,
    [calibration.collection, calibration.model, calibration.report, calibration.updatedBy],
  )
  return rows[0] as StoredCalibration
}

export async function deleteCalibration(pool: Pick<Pool, 'query'>, collection: string): Promise<boolean> {
  const { rowCount } = await pool.query('DELETE FROM collection_calibration WHERE collection = $1', [
    collection,
  ])
  return (rowCount ?? 0) > 0
}

/**
 * The judgement a question is refused by: its collection's own when it searches exactly one
 * collection that has one; else the shipped model (null).
 */
export async function calibrationFor(
  pool: Pick<Pool, 'query'>,
  options: { collection?: string | undefined; within?: string[] | null | undefined },
): Promise<AnswerabilityModel | null> {
  const only = options.collection ?? (options.within?.length === 1 ? options.within[0] : undefined)
  if (only === undefined) return null
  const { rows } = await pool.query<{ model: AnswerabilityModel }>(
    'SELECT model FROM collection_calibration WHERE collection = $1',
    [only],
  )
  const model = rows[0]?.model
  // A calibration fitted on signals since renamed is not used: the shipped model judges instead
  // (rag calibrate again refits it), rather than a judgement that silently reads zeros.
  if (!model || answerabilityModelProblem(model) !== null) return null
  return model
}

export {
  CALIBRATION_LIMITS,
  type CalibrationDeps,
  CalibrationError,
  type CalibrationQuestion,
  calibrateCollection,
} from './calibrate-collection.ts'
export { type CalibrationReport, crossValidatedFit, type HeldOutFigures } from './calibration-report.ts'
export {
  calibrationFor,
  deleteCalibration,
  readCalibration,
  type StoredCalibration,
} from './calibration-store.ts'

export { writeHeavyCrossEncoder } from './heavy-cross-encoder.ts'
export { writeTinyCrossEncoder } from './tiny-cross-encoder.ts'

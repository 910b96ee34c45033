export * from './enums.ts'
export * from './schemas.ts'

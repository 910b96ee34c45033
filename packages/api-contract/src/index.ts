export * from './enums.ts'
export * from './schemas.ts'
export * from './version.ts'

// What tests read of the environment (the test database, Redis, shared assets): a test helper,
// kept out of the production entry point.
export { findTestAsset, requireTestAsset, type TestConfig, testConfig } from './test-config.ts'

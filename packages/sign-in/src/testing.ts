export { startTestProvider, type TestProvider } from './testing/test-provider.ts'
